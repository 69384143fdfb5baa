import { promisify } from 'node:util';
import { gunzip as gunzipCallback } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OwnerSnapshot } from '../projections/snapshots/owner-snapshots.ts';

const gunzip = promisify(gunzipCallback);

/**
 * Answers with an owner's list snapshot: per user and checked every time (the browser may keep it, but asks again
 * with If-None-Match, and an unchanged list is a 304), gzipped for every browser, unzipped for the rare client that
 * takes no gzip.
 */
export async function sendSnapshot(request: FastifyRequest, reply: FastifyReply, { gzipped, etag }: OwnerSnapshot): Promise<FastifyReply> {
  reply.header('cache-control', 'private, no-cache').header('etag', etag).header('vary', 'cookie, accept-encoding');
  if (request.headers['if-none-match'] === etag) return reply.status(304).send();
  reply.type('application/json; charset=utf-8');
  if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) return reply.header('content-encoding', 'gzip').send(gzipped);
  return reply.send(await gunzip(gzipped));
}
