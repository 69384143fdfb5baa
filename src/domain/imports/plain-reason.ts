// What a row's outcome says to its owner: its reason in plain words. Reasons are written for users where they are
// made (the image fetcher's, the engine's and the sheet reader's messages), but a reason can carry a system error's
// code from below them (an `ENOTFOUND` in a library's message, a `snake_case` code as the whole message): those
// are told in words here, once, whatever recorded them, so an old event reads as well as a new one.

const SYSTEM_CODES: Readonly<Record<string, string>> = {
  ENOTFOUND: 'the image host could not be found',
  EAI_AGAIN: 'the image host could not be found',
  ECONNREFUSED: 'the image server refused the connection',
  ECONNRESET: 'the image server closed the connection before sending the image',
  EPIPE: 'the image server closed the connection before sending the image',
  ETIMEDOUT: 'the image server did not answer in time',
  EHOSTUNREACH: 'the image server could not be reached',
  ENETUNREACH: 'the image server could not be reached',
  ECERT: 'the image server’s security certificate is not valid',
  CERT_HAS_EXPIRED: 'the image server’s security certificate has expired',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the image server’s security certificate is not valid',
};

const UNKNOWN = 'The card could not be processed. Check that the URL opens the image itself, then retry.';

/** The reason as shown, or null when there is none (pending and graded rows). */
export function plainRowReason(reason: string | null): string | null {
  if (reason === null || reason.trim() === '') return null;
  // A bare code ("import_row_error", "ENOTFOUND") is no sentence at all.
  if (/^[A-Za-z]+(?:_[A-Za-z0-9]+)+$|^E[A-Z]{3,}$/.test(reason.trim())) {
    const words = SYSTEM_CODES[reason.trim()];
    return words ? `The image could not be downloaded: ${words}.` : UNKNOWN;
  }
  const code = Object.keys(SYSTEM_CODES).find((name) => new RegExp(`\\b${name}\\b`).test(reason));
  if (code) {
    const side = /^(Front|Back) image: /.exec(reason)?.[0] ?? '';
    return `${side}The image could not be downloaded: ${SYSTEM_CODES[code]}.`;
  }
  return reason;
}
