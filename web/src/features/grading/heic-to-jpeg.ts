import { sniffImageType } from '@contracts/image-formats';

// Issue 35: a HEIC costs the server a second of HEVC decoding in WebAssembly (src/vision/heic.ts), 20 times a JPEG's.
// Safari on a Mac hands the page an iPhone's HEIC as it is, and Safari can decode it: there the page sends a JPEG
// of it instead (full resolution, upright, quality 0.92, as good as the phone's own JPEG). Browsers that cannot
// decode HEIC (Chromium, Firefox) send the file as it is, and the server reads it.

/** The quality of the JPEG sent in place of a HEIC: a phone camera's own. */
export const HEIC_JPEG_QUALITY = 0.92;

/** One conversion per file: grading and then saving send the same bytes, so the server knows them for the same photo. */
const converted = new WeakMap<File, Promise<File>>();

/** `file` as the page should upload it: a JPEG of it when it is a HEIC this browser can decode, else itself. */
export function uploadableFile(file: File): Promise<File> {
  let conversion = converted.get(file);
  if (!conversion) {
    conversion = convert(file);
    converted.set(file, conversion);
  }
  return conversion;
}

async function convert(file: File): Promise<File> {
  if (sniffImageType(new Uint8Array(await file.slice(0, 64).arrayBuffer())) !== 'image/heic') return file;
  try {
    const jpeg = await drawAsJpeg(file);
    return new File([jpeg], `${file.name.replace(/\.(heic|heif)$/i, '')}.jpg`, { type: 'image/jpeg', lastModified: file.lastModified });
  } catch {
    // This browser cannot decode HEIC: the server can.
    return file;
  }
}

/** The picture decoded by the browser, upright (its rotation applied, as an <img> shows it), drawn at full size. */
async function drawAsJpeg(file: File): Promise<Blob> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  try {
    const canvas = document.createElement('canvas');
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d context');
    context.drawImage(bitmap, 0, 0);
    return await new Promise<Blob>((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no JPEG'))), 'image/jpeg', HEIC_JPEG_QUALITY));
  } finally {
    bitmap.close();
  }
}
