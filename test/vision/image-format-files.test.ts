import { describe, expect, it } from 'vitest';
import { isImageFormatFile } from '../../src/contracts/image-formats.ts';

// What the web app's pickers and drop zones take before anything is sent: the one list of formats, by the type the
// browser gives, or by name where it gives none (Chromium and Firefox know no type for a HEIC).

describe('a chosen file is a photo format', () => {
  it.each([
    ['card.jpg', 'image/jpeg', true],
    ['IMG_0042.HEIC', '', true],
    ['IMG_0042.heif', '', true],
    ['IMG_0042.heic', 'image/heic', true],
    ['scan.tiff', 'image/tiff', false],
    ['card.svg', 'image/svg+xml', false],
    ['notes.txt', '', false],
    // A name says nothing once the browser has named the type: a PDF called .jpg is a PDF.
    ['card.jpg', 'application/pdf', false],
  ])('%s (%s) → %s', (name, type, expected) => {
    expect(isImageFormatFile({ name, type })).toBe(expected);
  });
});
