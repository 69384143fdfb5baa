// THE list of photo formats the product takes: the decoder, the upload checks, the error messages and the
// web app's file pickers all read it, so what a picker offers is what the server grades.

export interface ImageFormat {
  /** How people call it, in messages. */
  label: string;
  /** What a browser or a server may call it; the first is the standard name. */
  mimeTypes: readonly string[];
  extensions: readonly string[];
}

export const IMAGE_FORMATS = [
  { label: 'JPEG', mimeTypes: ['image/jpeg'], extensions: ['.jpg', '.jpeg'] },
  { label: 'PNG', mimeTypes: ['image/png'], extensions: ['.png'] },
  { label: 'WebP', mimeTypes: ['image/webp'], extensions: ['.webp'] },
  // What an iPhone saves by default.
  { label: 'HEIC', mimeTypes: ['image/heic', 'image/heif'], extensions: ['.heic', '.heif'] },
  { label: 'AVIF', mimeTypes: ['image/avif'], extensions: ['.avif'] },
  { label: 'GIF', mimeTypes: ['image/gif'], extensions: ['.gif'] },
] as const satisfies readonly ImageFormat[];

/** "JPEG, PNG, WebP, HEIC, AVIF or GIF". */
export const IMAGE_FORMATS_LABEL = `${IMAGE_FORMATS.slice(0, -1).map((f) => f.label).join(', ')} or ${IMAGE_FORMATS.at(-1)!.label}`;

/** For `<input type="file" accept=…>`: the media types and the extensions (some browsers know HEIC only by name). */
export const IMAGE_ACCEPT_ATTRIBUTE = IMAGE_FORMATS.flatMap((f) => [...f.mimeTypes, ...f.extensions]).join(',');
