import { isImageFormatFile } from '@contracts/image-formats';

/**
 * A file the Add dialog takes as a photo: any image type, as SPEC.md §2 says, and a format the server grades that
 * the browser names by no type (HEIC outside Safari).
 */
export function isPortfolioPhoto(file: File): boolean {
  return file.type.startsWith('image/') || isImageFormatFile(file);
}
