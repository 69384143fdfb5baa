import sharp from 'sharp';
import type { ImageContentType } from '../../src/infra/image-storage/index.ts';
import { heicFixture } from '../vision/heic-fixture.ts';

/** A small real image in each accepted format, drawn by sharp (shared by the image tests); HEIC, which sharp cannot write, is the committed fixture whatever the seed. */
export async function sampleImage(type: ImageContentType, seed = 0): Promise<Buffer> {
  const base = sharp({ create: { width: 24, height: 32, channels: 3, background: { r: (seed * 37) % 256, g: 120, b: 200 } } });
  switch (type) {
    case 'image/jpeg':
      return base.jpeg().toBuffer();
    case 'image/png':
      return base.png().toBuffer();
    case 'image/webp':
      return base.webp().toBuffer();
    case 'image/gif':
      return base.gif().toBuffer();
    case 'image/avif':
      return base.avif().toBuffer();
    case 'image/heic':
      return heicFixture();
  }
}
