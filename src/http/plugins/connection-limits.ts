import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { rawAnswer } from './errors.ts';

// A cap on the connections one client address holds open at once (issue 34): a client that opens thousands of slow
// connections from one address would otherwise take the file descriptors every other client needs. A connection over
// the cap is answered 429 and closed as it arrives, before a byte of its request is read. Counted per socket address:
// behind a proxy that is the proxy's (app.ts turns the cap off there; the proxy caps its clients).

export interface ConnectionLimitsOptions {
  /** Open connections per address; 0: no cap. */
  perAddress: number;
}

const overCap = rawAnswer(429, { error: 'Too many connections from your address at once. Close some and try again.', code: 'too_many_connections' });

export const connectionLimitsPlugin = fp(
  async (app: FastifyInstance, { perAddress }: ConnectionLimitsOptions) => {
    if (perAddress === 0) return;
    const openByAddress = new Map<string, number>();
    app.server.on('connection', (socket: Socket) => {
      const address = socket.remoteAddress ?? '';
      const open = (openByAddress.get(address) ?? 0) + 1;
      if (open > perAddress) {
        socket.on('error', () => {});
        socket.end(overCap);
        socket.destroySoon();
        return;
      }
      openByAddress.set(address, open);
      socket.once('close', () => {
        const left = (openByAddress.get(address) ?? 1) - 1;
        if (left <= 0) openByAddress.delete(address);
        else openByAddress.set(address, left);
      });
    });
  },
  { name: 'connection-limits' },
);
