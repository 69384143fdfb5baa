import type { SideMeasurement, SideName } from '../contracts/measurement.ts';
import { measureSide } from './measure-side.ts';

/** What the grading service posts to a piscina worker: decoded pixels (transferred) and the side. */
export interface MeasureTask {
  data: ArrayBuffer | Uint8Array;
  width: number;
  height: number;
  channels: 3;
  side: SideName;
}

/** Piscina task: measures one side off the main thread. */
export default function measureTask(task: MeasureTask): SideMeasurement {
  const data = task.data instanceof Uint8Array ? task.data : new Uint8Array(task.data);
  return measureSide({ data, width: task.width, height: task.height, channels: 3 }, task.side);
}
