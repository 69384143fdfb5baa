import { describe, expect, it } from 'vitest';
import { CARD_HEIGHT_MM, CARD_WIDTH_MM, cardPxPerMmOfSize, closeEnoughToGrade, MIN_PX_PER_MM } from '../../src/contracts/measurement.ts';
import { MIN_PX_PER_MM as GRADER_MIN_PX_PER_MM } from '../../src/vision/card-outline.ts';
import { cardPxPerMm } from '../../src/vision/geometry.ts';

// Issue 35: the grader and the camera's guide share one "close enough" (src/contracts/measurement.ts). The guide
// reads a card's width and height in pixels, the grader its four corners; both must give the same px/mm and the
// same verdict.

describe('the close-enough rule both the grader and the camera apply', () => {
  it('is the grader\'s own constant, 4.5 px/mm (GRADING.md §1.2)', () => {
    expect(MIN_PX_PER_MM).toBe(4.5);
    expect(GRADER_MIN_PX_PER_MM).toBe(MIN_PX_PER_MM);
  });

  it('given a card\'s size in pixels, then its px/mm is the mean of its width\'s and height\'s scales', () => {
    expect(cardPxPerMmOfSize(CARD_WIDTH_MM * 4.5, CARD_HEIGHT_MM * 4.5)).toBeCloseTo(4.5, 10);
    expect(cardPxPerMmOfSize(CARD_WIDTH_MM * 4, CARD_HEIGHT_MM * 6)).toBeCloseTo(5, 10);
  });

  it('given the same card as corners, then the grader\'s px/mm is the same figure', () => {
    const [w, h] = [300, 420];
    const quad = [
      { x: 10, y: 20 },
      { x: 10 + w, y: 20 },
      { x: 10 + w, y: 20 + h },
      { x: 10, y: 20 + h },
    ];
    expect(cardPxPerMm(quad)).toBeCloseTo(cardPxPerMmOfSize(w, h), 10);
  });

  it('given exactly 4.5 px/mm, then close enough; a hair under, then not', () => {
    expect(closeEnoughToGrade(MIN_PX_PER_MM)).toBe(true);
    expect(closeEnoughToGrade(MIN_PX_PER_MM + 3)).toBe(true);
    expect(closeEnoughToGrade(MIN_PX_PER_MM - 0.01)).toBe(false);
    expect(closeEnoughToGrade(0)).toBe(false);
  });
});
