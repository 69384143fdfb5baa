import { describe, expect, it } from 'vitest';
import { measureSynthetic, noisyCard } from './synthetic-photos.ts';

// A crease is seen as a light face and a dark one side by side. In a listing photo at 5 px/mm a fine fold's two faces
// fall in one pixel and it is a faint line like the print's (issue 30: PSA 1 cards whose crackled creases the engine
// could not tell from the art): the result says so among what the photo cannot show, rather than implying no crease.

describe('creases below the resolution', () => {
  it('given a card at 5 px/mm, when measured, then its surface limits say a crease folded finer than two pixels cannot be seen', async () => {
    const m = await measureSynthetic(noisyCard({ pxPerMm: 5, photo: { noise: 3 } }), 66);
    const surface = m.quality.subgradeLimits!.surface;
    expect(surface.smallestDefectMm).toBeGreaterThanOrEqual(0.35);
    expect(surface.unseen).toMatch(/^scratches, spots and print lines under 0\.\d\d mm, and creases folded narrower than that$/);
  });
});
