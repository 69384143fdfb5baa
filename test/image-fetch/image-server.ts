import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ACCEPTED_IMAGE_TYPES, type ImageContentType } from '../../src/infra/image-storage/index.ts';
import { sampleImage } from '../image-storage/sample-images.ts';

/** A real HTTP server on loopback that misbehaves on request, as image hosts do. */
export interface ImageServer {
  /** http://127.0.0.1:port or http://[::1]:port */
  origin: string;
  port: number;
  images: Map<ImageContentType, Buffer>;
  /** Host headers received, in order. */
  hosts: string[];
  /** Most requests seen in flight at once on /held. */
  maxInFlight: number;
  /** Responses the server stopped writing because the client hung up. */
  abandonedStreams: number;
  close(): Promise<void>;
}

const extension: Record<ImageContentType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'image/heic': 'heic',
};

export async function startImageServer(host: '127.0.0.1' | '::1' = '127.0.0.1'): Promise<ImageServer> {
  const images = new Map<ImageContentType, Buffer>();
  for (const type of ACCEPTED_IMAGE_TYPES) images.set(type, await sampleImage(type));
  const jpeg = images.get('image/jpeg')!;
  let inFlight = 0;

  const state: Omit<ImageServer, 'origin' | 'port' | 'close'> = { images, hosts: [], maxInFlight: 0, abandonedStreams: 0 };

  const server = http.createServer((request, response) => {
    state.hosts.push(request.headers.host ?? '');
    const url = new URL(request.url ?? '/', 'http://server');
    const send = (status: number, contentType: string, body: Buffer | string) => {
      response.writeHead(status, { 'content-type': contentType });
      response.end(body);
    };

    for (const [type, bytes] of images) {
      if (url.pathname === `/card.${extension[type]}`) return send(200, type, bytes);
    }
    switch (url.pathname) {
      case '/redirect': {
        // ?to=<absolute or relative location>
        response.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('to') ?? '' });
        return response.end();
      }
      case '/no-location':
        response.writeHead(302);
        return response.end();
      case '/hops': {
        // /hops?n=3 redirects three times (relative locations), then serves the JPEG.
        const n = Number(url.searchParams.get('n'));
        response.writeHead(n > 0 ? 301 : 200, n > 0 ? { location: `/hops?n=${n - 1}` } : { 'content-type': 'image/jpeg' });
        return response.end(n > 0 ? undefined : jpeg);
      }
      case '/html':
        return send(200, 'text/html; charset=utf-8', '<html><body>Not an image</body></html>');
      case '/svg':
        return send(200, 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
      case '/octet-stream':
        return send(200, 'application/octet-stream', jpeg);
      case '/no-content-type':
        response.removeHeader('content-type');
        response.writeHead(200);
        return response.end(jpeg);
      case '/lying-png':
        return send(200, 'image/png', '<html>I said I was a PNG</html>');
      case '/empty':
        return send(200, 'image/jpeg', Buffer.alloc(0));
      case '/missing':
        return send(404, 'text/plain', 'Not found');
      case '/jpg-alias':
        return send(200, 'image/jpg', jpeg);
      case '/declared-huge':
        response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(500 * 1024 * 1024) });
        return response.write(jpeg);
      case '/endless': {
        // No length: a valid JPEG start followed by bytes for ever, until the client hangs up.
        response.writeHead(200, { 'content-type': 'image/jpeg' });
        const chunk = Buffer.alloc(64 * 1024, 0x55);
        let stopped = false;
        response.on('close', () => {
          if (!response.writableFinished) state.abandonedStreams++;
          stopped = true;
        });
        response.write(jpeg.subarray(0, 3));
        const pump = () => {
          while (!stopped && response.write(chunk));
          if (!stopped) response.once('drain', pump);
        };
        return pump();
      }
      case '/slow-headers':
        // Never answers; the client must give up on its own.
        return;
      case '/slow-body': {
        response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(jpeg.length) });
        let sent = 0;
        const timer = setInterval(() => {
          if (sent >= jpeg.length) return clearInterval(timer);
          response.write(jpeg.subarray(sent, sent + 16));
          sent += 16;
        }, 100);
        response.on('close', () => clearInterval(timer));
        return;
      }
      case '/cut-off':
        response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(jpeg.length) });
        response.write(jpeg.subarray(0, 10));
        return setTimeout(() => response.destroy(), 20);
      case '/held': {
        inFlight++;
        state.maxInFlight = Math.max(state.maxInFlight, inFlight);
        return setTimeout(() => {
          inFlight--;
          send(200, 'image/jpeg', jpeg);
        }, 60);
      }
      default:
        return send(404, 'text/plain', 'Not found');
    }
  });

  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    port,
    origin: host === '::1' ? `http://[::1]:${port}` : `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as ImageServer;
}
