import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { AppError, type ErrorBody } from '../../contracts/errors.ts';
import { isImageHash, type ByteRange } from '../../infra/image-storage/index.ts';
import { IMAGES_PATH } from '../../projections/cards/image-urls.ts';
import type { RouteOptions } from '../app.ts';
import { fileField, routeDocs } from '../route-docs.ts';

// Stored photos and annotated pictures, by the SHA-256 of their bytes, streamed from the image store (files or a
// bucket) with their stored type. A hash's bytes never change, so a response can be cached by anyone for a year,
// its ETag is the hash, and a byte range of it is as good as any. Registered outside the API's session context: a
// response that every cache may keep must never set a cookie.

const CACHE_FOREVER = 'public, max-age=31536000, immutable';

/**
 * One byte range of `size` bytes from a Range header (RFC 9110 §14): `bytes=a-b`, `bytes=a-`, `bytes=-n`.
 * 'whole' when the header is absent, not in bytes or asks for several ranges (then the whole image is the answer);
 * 'unsatisfiable' when it starts past the end.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'whole' | 'unsatisfiable' {
  const match = /^bytes=(\d*)-(\d*)$/.exec((header ?? '').trim());
  if (!match || (match[1] === '' && match[2] === '')) return 'whole';
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return 'whole';
  return { start, end };
}

export const imageRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  const { imageStore } = runtime;

  app.get(
    `${IMAGES_PATH}/:hash`,
    {
      schema: routeDocs(
        {
          summary: 'A stored photo or annotated picture, by the SHA-256 of its bytes (cached for ever; byte ranges)',
          description: 'ETag is the hash; `Range: bytes=…` answers 206 with that part (416 past the end). 503 when the image store does not answer.',
          tags: ['grading'],
          params: z.object({ hash: z.string() }),
          responses: { 200: fileField('The image, as stored'), 206: fileField('The byte range asked for'), 304: null },
          errors: [400, 404, 416, 503],
          noSession: true,
        },
        'GET',
      ),
    },
    async (request, reply) => {
      const { hash } = request.params as { hash: string };
      if (!isImageHash(hash)) {
        throw new AppError('invalid', 'image_hash_invalid', 'An image is named by the SHA-256 of its bytes: 64 lower-case hex characters.');
      }
      const etag = `"${hash}"`;
      const ifNoneMatch = request.headers['if-none-match'];
      if (ifNoneMatch && (ifNoneMatch === '*' || ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag))) {
        return reply.status(304).header('cache-control', CACHE_FOREVER).header('etag', etag).send();
      }

      // A range counts only while the client's copy is this one (If-Range), which for a hash it always is.
      const rangeHeader = request.headers.range;
      const ifRange = request.headers['if-range'];
      const wantsRange = rangeHeader !== undefined && (ifRange === undefined || ifRange === etag);
      let range: ByteRange | undefined;
      if (wantsRange) {
        const stat = await imageStore.stat(hash);
        if (!stat) throw notFound();
        const parsed = parseRange(rangeHeader, stat.size);
        if (parsed === 'unsatisfiable') {
          const body: ErrorBody = { error: 'That byte range is past the end of the image.', code: 'range_not_satisfiable' };
          return reply.status(416).header('content-range', `bytes */${stat.size}`).send(body);
        }
        if (parsed !== 'whole') range = parsed;
      }

      const image = await imageStore.open(hash, range);
      if (!image) throw notFound();
      reply
        .header('content-type', image.contentType)
        .header('cache-control', CACHE_FOREVER)
        .header('etag', etag)
        .header('accept-ranges', 'bytes')
        .header('x-content-type-options', 'nosniff');
      if (range) {
        reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${image.size}`).header('content-length', range.end - range.start + 1);
      } else {
        reply.header('content-length', image.size);
      }
      return reply.send(image.body);
    },
  );
};

function notFound(): AppError {
  return new AppError('not_found', 'image_not_found', 'Image not found');
}
