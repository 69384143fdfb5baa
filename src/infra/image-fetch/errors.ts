import { AppError } from '../../contracts/errors.ts';
import type { AddressKind } from './address-policy.ts';

// Every way an image URL can be refused, each with its own code. Messages are shown to the user
// as they are; they never repeat the address a name resolved to (that would map our network for them).

export const imageFetchErrors = {
  invalidUrl: () => new AppError('invalid', 'image_url_invalid', 'That image URL is not a valid web address.'),

  scheme: (protocol: string, redirected: boolean) =>
    new AppError(
      'invalid',
      'image_url_scheme_refused',
      `${redirected ? 'That image URL redirects to' : 'That URL is'} a ${protocol.replace(/:$/, '')}: address. Only http:// and https:// image URLs can be fetched.`,
    ),

  address: (kind: Exclude<AddressKind, 'public'>, redirected: boolean) => {
    const leads = redirected ? 'That URL redirects to' : 'That URL points to';
    switch (kind) {
      case 'loopback':
        return new AppError('invalid', 'image_url_loopback', `${leads} this server itself (a loopback address) and cannot be fetched.`);
      case 'private':
        return new AppError('invalid', 'image_url_private_address', `${leads} a private network address and cannot be fetched.`);
      case 'link_local':
        return new AppError('invalid', 'image_url_link_local', `${leads} a link-local address (such as a cloud metadata service) and cannot be fetched.`);
      case 'reserved':
        return new AppError('invalid', 'image_url_reserved_address', `${leads} a reserved or non-routable address and cannot be fetched.`);
    }
  },

  unresolvable: (hostname: string) =>
    new AppError('unprocessable', 'image_url_unresolvable', `The image host ${hostname} could not be found.`),

  tooManyRedirects: (limit: number) =>
    new AppError('unprocessable', 'image_url_too_many_redirects', `That image URL redirects more than ${limit} times.`),

  badRedirect: () => new AppError('unprocessable', 'image_url_bad_redirect', 'That image URL redirects to an invalid address.'),

  timeout: (timeoutMs: number) =>
    new AppError('unprocessable', 'image_download_timeout', `The image took longer than ${timeoutMs / 1000} s to download.`),

  unreachable: () => new AppError('unprocessable', 'image_download_failed', 'The image could not be downloaded: the server did not answer properly.'),

  httpStatus: (status: number) =>
    new AppError('unprocessable', 'image_download_http_error', `The image could not be downloaded: the server answered with HTTP ${status}.`),

  notAnImage: (what: string) =>
    new AppError(
      'unsupported',
      'image_download_not_an_image',
      `That URL does not point to an image (${what}). Image URLs must point directly to a JPG, PNG, WEBP, HEIC, GIF or AVIF file.`,
    ),

  tooLarge: (maxBytes: number) =>
    new AppError('too_large', 'image_download_too_large', `The image is larger than ${formatMegabytes(maxBytes)}.`),
};

function formatMegabytes(bytes: number): string {
  const megabytes = bytes / (1024 * 1024);
  return megabytes >= 1 ? `${Number(megabytes.toFixed(1))} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
