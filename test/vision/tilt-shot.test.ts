import { beforeAll, describe, expect, it } from 'vitest';
import { ONE_PHOTO_SURFACE_NOTE } from '../../src/contracts/measurement.ts';
import type { Defect, SideMeasurement } from '../../src/contracts/measurement.ts';
import { decodeImage, measureSide } from '../../src/vision/index.ts';
import type { DecodedImage } from '../../src/vision/index.ts';
import { STANDARD_FORMAT } from '../../src/vision/card-formats.ts';
import { renderTiltSequence } from '../../src/vision/synthetic/tilt.ts';
import type { TiltScratch } from '../../src/vision/synthetic/tilt.ts';
import { readTiltShot, withTiltShot } from '../../src/vision/tilt-shot.ts';
import type { TiltReading } from '../../src/vision/tilt-shot.ts';

// Issue 31's tilt shot on drawn sequences: a lamp sweeps over the card while the hand holding it moves a little.
// Scratches 0.1 mm wide and 3 mm or longer are found with their length within ±20%; a clean holo face, whose foil
// twinkles frame by frame, shows none.

const decodeAll = (frames: Uint8Array[]) => Promise.all(frames.map((bytes) => decodeImage(bytes, { maxPixels: 40_000_000, maxSide: 1344 })));
const distance = (d: Defect, s: TiltScratch) => Math.hypot(d.box.x + d.box.width / 2 - s.x, d.box.y + d.box.height / 2 - s.y);

describe('a tilt shot of a scratched and dented card, the hand moving it up to 3 mm and 3° between frames', () => {
  const scratches: TiltScratch[] = [
    { x: 20, y: 40, lengthMm: 3, angleDeg: 30 },
    { x: 30, y: 25, lengthMm: 5, angleDeg: 0 },
    { x: 40, y: 62, lengthMm: 8, angleDeg: 100 },
  ];
  let frames: DecodedImage[];
  let reading: TiltReading;
  let front: SideMeasurement;

  beforeAll(async () => {
    const sequence = await renderTiltSequence({ card: { borderColor: '#e8c33a' }, scratches, dents: [{ x: 45, y: 30, diameterMm: 2 }], frames: 6, pxPerMm: 8, handMovement: { shiftMm: 3, rotationDeg: 3 } }, 31);
    frames = await decodeAll(sequence.frames);
    reading = readTiltShot(frames, STANDARD_FORMAT);
    front = measureSide(frames[0]!, 'front');
  });

  it('registers the frames where the card moved, and finds each scratch where it is with its length within ±20%', () => {
    expect(reading.summary).toMatchObject({ framesSent: 6, read: true, foil: false, note: null });
    expect(reading.summary.framesRegistered).toBeGreaterThanOrEqual(5);
    const found = reading.defects.filter((d) => d.kind === 'scratch');
    expect(found).toHaveLength(scratches.length);
    for (const scratch of scratches) {
      const match = found.find((d) => distance(d, scratch) < 1);
      expect(match, `scratch at ${scratch.x}, ${scratch.y}`).toBeDefined();
      expect(Math.abs(match!.lengthMm! / scratch.lengthMm - 1)).toBeLessThanOrEqual(0.2);
      expect(match!.widthMm).toBeLessThan(0.5);
      expect(match!.seenIn).toBe('reflected-light');
    }
  });

  it('finds the dent as one, where it is', () => {
    const dents = reading.defects.filter((d) => d.kind === 'dent');
    expect(dents).toHaveLength(1);
    expect(distance(dents[0]!, { x: 45, y: 30, lengthMm: 0, angleDeg: 0 })).toBeLessThan(1.5);
  });

  it('joins the front: its scratches count in the surface once (the photo may show one already), and the one-photo note is lifted', () => {
    expect(front.quality.subgradeLimits!.surface.notes).toEqual([ONE_PHOTO_SURFACE_NOTE]);
    const joined = withTiltShot(front, reading);
    for (const scratch of scratches) expect(joined.defects.filter((d) => d.kind === 'scratch' && distance(d, scratch) < 1)).toHaveLength(1);
    expect(joined.surface.scratchLengthMm).toBeGreaterThanOrEqual(0.8 * (3 + 5 + 8));
    expect(joined.surface.spotCount).toBe(front.surface.spotCount + 1);
    expect(joined.surface.tiltShot?.read).toBe(true);
    expect(joined.quality.subgradeLimits!.surface.notes).toEqual([]);
  });

  it('with too few frames showing the card, says it did not read the shot and keeps the one-photo note', () => {
    const blank: DecodedImage = { data: new Uint8Array(frames[0]!.data.length).fill(60), width: frames[0]!.width, height: frames[0]!.height, channels: 3 };
    const few = readTiltShot([frames[0]!, blank], STANDARD_FORMAT);
    expect(few.summary).toMatchObject({ framesSent: 2, framesRegistered: 1, read: false });
    expect(few.summary.note).toMatch(/^Tilt shot not read: the card was found in 1 of its 2 frames/);
    expect(withTiltShot(front, few).quality.subgradeLimits!.surface.notes).toEqual([ONE_PHOTO_SURFACE_NOTE, few.summary.note]);
  });
});

describe('a tilt shot of a clean holo card', () => {
  it('finds no scratch and no dent: the twinkling foil is foil', async () => {
    const sequence = await renderTiltSequence({ card: { holo: true, borderColor: '#f2f2ee' }, frames: 6, pxPerMm: 8 }, 32);
    const reading = readTiltShot(await decodeAll(sequence.frames), STANDARD_FORMAT);
    expect(reading.summary.read).toBe(true);
    expect(reading.summary.foil).toBe(true);
    expect(reading.defects).toEqual([]);
  });
});
