import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { SideMeasurement } from '../../src/contracts/measurement.ts';
import { annotateSide, annotationSvg } from '../../src/vision/annotate.ts';
import type { DecodedImage } from '../../src/vision/index.ts';
import { side } from './fixtures.ts';

// The annotated picture: a plain grey card, so every coloured pixel is something the annotation drew.

const flat: DecodedImage = { data: new Uint8Array(1260 * 1760 * 3).fill(128), width: 1260, height: 1760, channels: 3 };

function measured(): SideMeasurement {
  const measurement = side({ centering: { horizontal: 60, vertical: 50 } }); // left 3.6 mm, right 2.4 mm
  measurement.defects = [{ kind: 'scratch', location: 'surface', box: { x: 20, y: 40, width: 13, height: 7.5 }, sizeMm: 15, angleDeg: 30 }];
  return measurement;
}

async function pixels(png: Uint8Array) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    info,
    at(x: number, y: number) {
      const i = (y * info.width + x) * 3;
      return [data[i]!, data[i + 1]!, data[i + 2]!];
    },
  };
}

const isGreen = ([r, g, b]: number[]) => g! > 150 && r! < 100 && b! < 130;
const isCyan = ([r, g, b]: number[]) => r! < 60 && g! > 140 && b! > 160;
const isRed = ([r, g, b]: number[]) => r! > 200 && g! < 100 && b! < 100;
const isGrey = ([r, g, b]: number[]) => r === 128 && g === 128 && b === 128;

describe('the annotated picture of a graded side', () => {
  it('draws the outline, the border lines where they were measured, and a box on the defect', async () => {
    const png = await annotateSide(flat, measured());
    const image = await pixels(png);
    expect([image.info.width, image.info.height]).toEqual([630, 880]); // 10 px/mm
    expect(isGreen(image.at(1, 600))).toBe(true); // outline along the left edge
    expect(isCyan(image.at(36, 3))).toBe(true); // left border line at 3.6 mm
    expect(isCyan(image.at(606, 3))).toBe(true); // right border line at 63 − 2.4 mm
    expect(isGrey(image.at(50, 3))).toBe(true); // nothing drawn between them at the top
    expect(isRed(image.at(200, 420))).toBe(true); // the scratch's box, left side
    expect(isRed(image.at(330, 420))).toBe(true); // and right side
    expect(isGrey(image.at(265, 410))).toBe(true); // the box is hollow
  });

  it('labels the borders in mm and the defect with its kind and size', () => {
    const svg = annotationSvg(measured());
    for (const text of ['3.60 mm', '2.40 mm', '3.00 mm', 'L/R 60/40', 'T/B 50/50', 'scratch 15.0 mm']) expect(svg).toContain(text);
  });

  it('moves the ratio off the middle of the card when a defect box is there', () => {
    const middle = side({ centering: { horizontal: 60, vertical: 50 } });
    middle.defects = [{ kind: 'spot', location: 'surface', box: { x: 29, y: 42, width: 5, height: 4 }, sizeMm: 4 }];
    const ratioAt = (m: SideMeasurement) => Number(/<text x="[\d.]+" y="([\d.]+)"[^>]*>L\/R/.exec(annotationSvg(m))![1]);
    const clear = ratioAt({ ...middle, defects: [] });
    const moved = ratioAt(middle);
    expect(clear).toBeGreaterThan(410);
    expect(clear).toBeLessThan(470); // the middle of the 880-px card
    // The box spans 420-460 px; the label (14 px tall) now sits wholly above or below it.
    expect(moved < 420 || moved - 14 > 460).toBe(true);
  });

  it('says when centering cannot be measured, and draws no border lines', async () => {
    const borderless = { ...measured(), centering: { measurable: false as const, reason: 'borderless' } };
    expect(annotationSvg(borderless)).toContain('centering not measurable (borderless)');
    const image = await pixels(await annotateSide(flat, borderless));
    expect(isCyan(image.at(36, 3))).toBe(false);
  });

  it('wraps a reason too long for the card over lines, every label chip inside the picture', () => {
    const twoSides = { ...measured(), defects: [], centering: { measurable: false as const, reason: 'no border found on the left and bottom sides' } };
    const svg = annotationSvg(twoSides);
    const lines = [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.join(' ')).toBe('centering not measurable (no border found on the left and bottom sides)');
    const chips = [...svg.matchAll(/<rect x="([\d.-]+)" y="[\d.-]+" width="([\d.]+)" height="[\d.]+" rx/g)].map((m) => [Number(m[1]), Number(m[1]) + Number(m[2])]);
    expect(chips.length).toBeGreaterThanOrEqual(2);
    for (const [left, right] of chips) {
      expect(left).toBeGreaterThanOrEqual(0);
      expect(right).toBeLessThanOrEqual(630);
    }
  });

  it('same pixels and measurements give the same bytes', async () => {
    const a = await annotateSide(flat, measured());
    const b = await annotateSide(flat, measured());
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });
});
