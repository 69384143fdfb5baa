import { describe, expect, it } from 'vitest';
import { exposureGain, normaliseExposure } from '../../src/vision/exposure.ts';
import type { DecodedImage } from '../../src/vision/index.ts';

/** A dim photo's pixels: every level from 0 to 115 (its whites at 115), then more of its brightest. */
function dimPixels(length: number): Uint8Array {
  const data = new Uint8Array(length);
  for (let i = 0; i < length; i++) data[i] = i % 7 === 0 ? 115 : i % 116;
  return data;
}

function imageOf(data: Uint8Array): DecodedImage {
  return { data, width: data.length / 3, height: 1, channels: 3 };
}

describe('normaliseExposure', () => {
  it('scales every level by the gain, rounded, whether the pixels are read two at a time or one by one', () => {
    const aligned = dimPixels(3 * 1001);
    // A view starting at an odd byte cannot be read two levels at a time.
    const odd = new Uint8Array(aligned.length + 1).subarray(1);
    odd.set(aligned);
    const gain = exposureGain(imageOf(aligned));
    expect(gain).toBeCloseTo(2, 5);
    for (const data of [aligned, odd]) {
      const normal = normaliseExposure(imageOf(data)).data;
      expect(normal).not.toBe(data);
      expect(Array.from(normal)).toEqual(Array.from(data, (level) => Math.min(255, Math.round(level * gain))));
    }
  });

  it('leaves a photo exposed normally as it is', () => {
    const image = imageOf(Uint8Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? 240 : 60)));
    expect(normaliseExposure(image)).toBe(image);
  });
});
