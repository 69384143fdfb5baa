import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Config } from '../../config.ts';
import { AppError } from '../../contracts/errors.ts';
import { isAcceptedImageType, normaliseMediaType, sniffImageType, type ImageContentType } from '../image-storage/image-type.ts';
import { createLimiter } from '../concurrency/limiter.ts';
import { refusedAddressKind } from './address-policy.ts';
import { imageFetchErrors } from './errors.ts';

// Downloads an image a user named by URL, without letting that URL reach inside our network
// (DESIGN.md §5). Each hop's host is resolved once, every address it resolves to is checked, and
// the connection goes to exactly those addresses, so a DNS answer cannot change between check and
// connect. Redirects are followed by hand, each one checked the same way.

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
/** DNS as a port, so tests can make a name resolve wherever they need. */
export type ResolveHost = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: ResolveHost = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export interface FetchedImage {
  bytes: Buffer;
  /** From the bytes themselves, not the server's header. */
  contentType: ImageContentType;
  /** Where the image was finally found, after redirects. */
  url: string;
  redirects: number;
}

export interface ImageFetcher {
  /** Downloads an image or throws an AppError saying why not. */
  fetchImage(url: string): Promise<FetchedImage>;
}

export interface ImageFetcherOptions {
  /** For one image, from the first DNS query to the last byte (waiting for a free slot not included). */
  timeoutMs: number;
  maxBytes: number;
  /** Downloads running at once; the rest wait their turn. */
  concurrency: number;
  /** Tests only: lets loopback addresses through. Private, link-local and reserved ranges stay refused. */
  allowLoopback: boolean;
  maxRedirects?: number;
  resolve?: ResolveHost;
  /**
   * Tests only: where a connection to an address that passed the checks really goes, as a fake network would
   * route it (a public address to a loopback test server), so the checks can be tested with loopback closed.
   */
  routeTo?: (address: ResolvedAddress) => ResolvedAddress;
}

type FetchConfig = Pick<Config, 'IMAGE_FETCH_TIMEOUT_MS' | 'IMAGE_MAX_BYTES' | 'IMAGE_FETCH_CONCURRENCY' | 'ALLOW_LOOPBACK_IMAGE_URLS'>;

export function imageFetcherOptions(config: FetchConfig): ImageFetcherOptions {
  return {
    timeoutMs: config.IMAGE_FETCH_TIMEOUT_MS,
    maxBytes: config.IMAGE_MAX_BYTES,
    concurrency: config.IMAGE_FETCH_CONCURRENCY,
    allowLoopback: config.ALLOW_LOOPBACK_IMAGE_URLS,
  };
}

const DEFAULT_MAX_REDIRECTS = 3;
const REQUEST_HEADERS = {
  accept: 'image/avif,image/webp,image/heic,image/png,image/jpeg,image/gif',
  // Images are compressed already; asking for no transfer encoding keeps the byte cap honest.
  'accept-encoding': 'identity',
  'user-agent': 'CardGrader-ImageFetcher/1.0',
};

export function createImageFetcher(options: ImageFetcherOptions): ImageFetcher {
  const resolve = options.resolve ?? systemResolver;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const limit = createLimiter(options.concurrency);

  /** A URL we may go on with; `from` is the URL that redirected here (Location may be relative to it). */
  function parseUrl(text: string, from?: URL): URL {
    let url: URL;
    try {
      url = new URL(text, from);
    } catch {
      throw from ? imageFetchErrors.badRedirect() : imageFetchErrors.invalidUrl();
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw imageFetchErrors.scheme(url.protocol, from !== undefined);
    return url;
  }

  /** The addresses this hop may connect to: all of them allowed, or a refusal. */
  async function allowedAddresses(url: URL, redirected: boolean, signal: AbortSignal): Promise<ResolvedAddress[]> {
    // The URL parser has already turned 2130706433, 0x7f.1 and [::ffff:127.0.0.1] into canonical addresses.
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (host === '') throw imageFetchErrors.invalidUrl();
    let addresses: ResolvedAddress[];
    const literalFamily = net.isIP(host);
    if (literalFamily !== 0) {
      addresses = [{ address: host, family: literalFamily === 6 ? 6 : 4 }];
    } else {
      try {
        // "localhost." and "localhost" are the same name; not every resolver thinks so.
        addresses = await abortable(resolve(host.replace(/\.$/, '')), signal);
      } catch (error) {
        if (signal.aborted) throw error;
        throw imageFetchErrors.unresolvable(host);
      }
      if (addresses.length === 0 || addresses.some((a) => net.isIP(a.address) === 0)) throw imageFetchErrors.unresolvable(host);
    }
    // One bad address refuses the name: we cannot choose which one the connection would use.
    for (const { address } of addresses) {
      const refused = refusedAddressKind(address, options.allowLoopback);
      if (refused) throw imageFetchErrors.address(refused, redirected);
    }
    return addresses;
  }

  async function download(startUrl: string, signal: AbortSignal): Promise<FetchedImage> {
    let url = parseUrl(startUrl);
    for (let redirects = 0; ; redirects++) {
      const addresses = await allowedAddresses(url, redirects > 0, signal);
      const response = await get(url, options.routeTo ? addresses.map(options.routeTo) : addresses, signal);
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && status !== 304) {
        response.destroy();
        if (redirects >= maxRedirects) throw imageFetchErrors.tooManyRedirects(maxRedirects);
        const location = response.headers.location;
        if (!location) throw imageFetchErrors.badRedirect();
        url = parseUrl(location, url);
        continue;
      }
      return { ...(await readImage(response, options.maxBytes)), url: url.href, redirects };
    }
  }

  return {
    fetchImage(url) {
      return limit(async () => {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), options.timeoutMs);
        try {
          return await download(url, controller.signal);
        } catch (error) {
          if (error instanceof AppError) throw error;
          if (controller.signal.aborted) throw imageFetchErrors.timeout(options.timeoutMs);
          // Refused connections, resets, TLS failures, malformed responses: the far side's fault.
          if (error instanceof Error && 'code' in error) throw imageFetchErrors.unreachable();
          throw error;
        } finally {
          clearTimeout(timer);
        }
      });
    },
  };
}

function get(url: URL, addresses: ResolvedAddress[], signal: AbortSignal): Promise<http.IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request({
      method: 'GET',
      hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      headers: REQUEST_HEADERS,
      lookup: pinnedLookup(addresses),
      // A fresh connection each time: a pooled socket could outlive the check that allowed it.
      agent: false,
      signal,
    });
    request.once('response', resolve);
    request.once('error', reject);
    request.end();
  });
}

/** A DNS lookup that answers with the addresses already resolved and checked, and nothing else. */
function pinnedLookup(addresses: ResolvedAddress[]): net.LookupFunction {
  return (hostname, lookupOptions, callback) => {
    const usable = lookupOptions.family === 4 || lookupOptions.family === 6 ? addresses.filter((a) => a.family === lookupOptions.family) : addresses;
    const first = usable[0];
    if (!first) {
      callback(Object.assign(new Error(`No usable address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    if (lookupOptions.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}

async function readImage(response: http.IncomingMessage, maxBytes: number): Promise<Pick<FetchedImage, 'bytes' | 'contentType'>> {
  const status = response.statusCode ?? 0;
  if (status < 200 || status >= 300) {
    response.destroy();
    throw imageFetchErrors.httpStatus(status);
  }
  const declaredType = normaliseMediaType(response.headers['content-type']);
  if (!isAcceptedImageType(declaredType)) {
    response.destroy();
    throw imageFetchErrors.notAnImage(declaredType ? `it answered with ${declaredType}` : 'it gave no content type');
  }
  const declaredLength = Number(response.headers['content-length']);
  if (Number.isFinite(declaredLength) && declaredLength > maxBytes) {
    response.destroy();
    throw imageFetchErrors.tooLarge(maxBytes);
  }
  // Counted as it arrives: a server may send no length, or lie about it.
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      response.destroy();
      throw imageFetchErrors.tooLarge(maxBytes);
    }
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks, total);
  const contentType = sniffImageType(bytes);
  if (!contentType) throw imageFetchErrors.notAnImage(`its content is not a JPG, PNG, WEBP, HEIC, GIF or AVIF image`);
  return { bytes, contentType };
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
