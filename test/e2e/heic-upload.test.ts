import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import type { CardResult } from '../../src/contracts/cards.ts';
import { sniffImageType } from '../../src/contracts/image-formats.ts';
import { renderSyntheticCard } from '../../src/vision/index.ts';
import { HEIC_CARD, HEIC_CARD_SEED, HEIC_FIXTURE } from '../vision/heic-fixture.ts';
import { tempDir, useFakeVisionModel } from './grading-fixtures.ts';
import { checkA11y } from './support/a11y.ts';
import { recordSentFiles, sentFile } from './support/browser.ts';
import { desktop, phone, useBrowserSession } from './support/session.ts';

// Issue 35, item 6: a HEIC photo is graded as its JPEG is. Chromium cannot decode HEIC, so it sends the file as it is
// and the server reads it; Safari can, and sends a JPEG of it at full size instead. Safari's decoder is stood in for
// here by a createImageBitmap that, given the HEIC, draws the picture it holds (the PNG it was encoded from).

useFakeVisionModel();
const session = useBrowserSession();

/** Grades 'front' through the upload card: the file sent and the result. */
async function gradeFile(page: Page, file: string): Promise<{ sent: Buffer; result: CardResult }> {
  await page.goto('/');
  await page.setInputFiles('#front-image', file);
  const response = page.waitForResponse('**/api/grade-card');
  await page.getByRole('button', { name: 'Grade Card' }).click();
  const answer = await response;
  expect(answer.status()).toBe(200);
  const result = (await answer.json()) as CardResult;
  await page.getByTestId('overall-grade').waitFor();
  return { sent: await sentFile(page, 'frontImage'), result };
}

/** A page that keeps the files it sends (support/browser.ts). */
async function recordingPage(viewport: { width: number; height: number }): Promise<Page> {
  const page = await session.newPage(viewport);
  await recordSentFiles(page);
  return page;
}

/** The picture the HEIC fixture was encoded from, drawn once for both tests (the same spec and seed give the same bytes). */
let heicCardPicture: Promise<Buffer> | undefined;
const heicCardPng = () => (heicCardPicture ??= renderSyntheticCard(HEIC_CARD, HEIC_CARD_SEED).then((bytes) => Buffer.from(bytes)));

const expectSameGrade = (a: CardResult, b: CardResult) => {
  expect(Math.abs(a.overallGrade - b.overallGrade)).toBeLessThanOrEqual(0.25);
  for (const subgrade of ['centering', 'corners', 'edges', 'surface'] as const) {
    expect(Math.abs((a.grades[subgrade] ?? Number.NaN) - (b.grades[subgrade] ?? Number.NaN))).toBeLessThanOrEqual(0.25);
  }
};

describe('a HEIC photo is graded as its JPEG', () => {
  test('where the browser cannot decode HEIC (Chromium), the file goes as it is and the server grades it as the JPEG', async () => {
    const png = await heicCardPng();
    const jpegFile = path.join(tempDir, 'heic-card.jpg');
    fs.writeFileSync(jpegFile, await sharp(png).jpeg({ quality: 92 }).toBuffer());
    for (const [viewport, name] of [[desktop, 'desktop'], [phone, 'phone']] as const) {
      const page = await recordingPage(viewport);
      const fromJpeg = await gradeFile(page, jpegFile);
      const fromHeic = await gradeFile(page, HEIC_FIXTURE.pathname);
      expect(sniffImageType(fromHeic.sent)).toBe('image/heic');
      expect(fromHeic.sent.equals(fs.readFileSync(HEIC_FIXTURE))).toBe(true);
      expectSameGrade(fromHeic.result, fromJpeg.result);
      await checkA11y(page, `heic-graded-${name}`);
    }
  });

  test('where the browser decodes HEIC (as Safari does), the page sends a full-size JPEG of it, graded as the JPEG', async () => {
    const png = await heicCardPng();
    const jpegFile = path.join(tempDir, 'heic-card-safari.jpg');
    fs.writeFileSync(jpegFile, await sharp(png).jpeg({ quality: 92 }).toBuffer());
    const { width, height } = await sharp(png).metadata();
    for (const [viewport, name] of [[desktop, 'desktop'], [phone, 'phone']] as const) {
      const page = await recordingPage(viewport);
      // Safari's decoder: the HEIC's picture, which Chromium can draw as the PNG it was encoded from.
      await page.addInitScript((base64: string) => {
        const decode = window.createImageBitmap.bind(window);
        const picture = new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type: 'image/png' });
        (window as unknown as { createImageBitmap: unknown }).createImageBitmap = async (source: ImageBitmapSource, options?: ImageBitmapOptions) => {
          if (source instanceof Blob) {
            const head = new TextDecoder('latin1').decode(await source.slice(4, 12).arrayBuffer());
            if (head === 'ftypheic') return decode(picture, options);
          }
          return decode(source, options);
        };
      }, Buffer.from(png).toString('base64'));
      const fromJpeg = await gradeFile(page, jpegFile);
      const fromHeic = await gradeFile(page, HEIC_FIXTURE.pathname);
      expect(sniffImageType(fromHeic.sent)).toBe('image/jpeg');
      const sent = await sharp(fromHeic.sent).metadata();
      expect([sent.width, sent.height]).toEqual([width, height]);
      expectSameGrade(fromHeic.result, fromJpeg.result);
      await checkA11y(page, `heic-as-jpeg-graded-${name}`);
    }
  });
});
