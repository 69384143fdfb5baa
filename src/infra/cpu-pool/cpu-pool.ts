import type { Transferable } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { AppError } from '../../contracts/errors.ts';

// Worker threads for the pixel work (DESIGN.md §5): the JavaScript loops over decoded pixels run here, off the event
// loop, and the sharp calls around them (decode, annotated PNG) are made from here too, so their buffers never reach
// the event loop's heap; sharp itself works on libuv's pool.

export interface CpuPoolOptions {
  /** Worker threads; the config's CPU_POOL_SIZE (the number of cores) in the runtime. */
  size: number;
  /** Tasks that may wait for a thread before `run` refuses more. Default 32 per thread. */
  maxQueue?: number;
  closeTimeoutMs?: number;
}

export interface CpuPool {
  readonly size: number;
  /**
   * Runs the default export of a task module (a `.ts` file: Node strips its types in the worker too)
   * on a worker thread. Pass large buffers in `transferList` so they move instead of being copied.
   */
  run<Output>(task: URL, input: unknown, transferList?: readonly Transferable[]): Promise<Output>;
  /**
   * At shutdown, once requests and jobs are done: drops queued tasks, gives running ones up to
   * `closeTimeoutMs` (default 3 s), then stops the threads.
   */
  close(): Promise<void>;
}

/** Every thread is busy and the queue is full: the caller should answer 503 or retry later. */
export class CpuPoolBusyError extends AppError {
  constructor() {
    super('unavailable', 'server_busy', 'The server is busy. Please try again in a moment.');
  }
}

export function createCpuPool(options: CpuPoolOptions): CpuPool {
  const piscina = new Piscina({
    minThreads: 0,
    maxThreads: options.size,
    // A task spends part of its time waiting on sharp (decoding and encoding run on libuv's threads): with a second
    // task on each thread, the thread measures one card while the other's photo decodes, and no core waits idle.
    concurrentTasksPerWorker: 2,
    maxQueue: options.maxQueue ?? options.size * 32,
    // Threads start on first use and stop after a minute idle, so a process that never grades pays nothing.
    idleTimeout: 60_000,
    closeTimeout: options.closeTimeoutMs ?? 3_000,
  });
  return {
    size: options.size,
    async run<Output>(task: URL, input: unknown, transferList: readonly Transferable[] = []) {
      try {
        return (await piscina.run(input, { filename: task.href, transferList: [...transferList] })) as Output;
      } catch (error) {
        if (error instanceof Error && error.message === 'Task queue is at limit') throw new CpuPoolBusyError();
        throw error;
      }
    },
    close: () => piscina.close({ force: true }),
  };
}
