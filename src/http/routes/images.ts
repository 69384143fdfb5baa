import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../contracts/errors.ts';
import { isImageHash } from '../../infra/image-storage/index.ts';
import { IMAGES_PATH } from '../../projections/cards/image-urls.ts';
import type { RouteOptions } from '../app.ts';
import { fileField, routeDocs } from '../route-docs.ts';

// Stored photos and annotated pictures, by the SHA-256 of their bytes. A hash's bytes never change, so a
// response can be cached by anyone for a year. Registered outside the API's session context: a response that
// every cache may keep must never set a cookie.

const CACHE_FOREVER = 'public, max-age=31536000, immutable';

export const imageRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  const { imageStore } = runtime;

  app.get(`${IMAGES_PATH}/:hash`, { schema: routeDocs({ summary: 'A stored photo or annotated picture, by the SHA-256 of its bytes (cached for ever)', tags: ['grading'], params: z.object({ hash: z.string() }), responses: { 200: fileField('The image, as stored'), 304: null }, errors: [400, 404], noSession: true }, 'GET') }, async (request, reply) => {
    const { hash } = request.params as { hash: string };
    if (!isImageHash(hash)) {
      throw new AppError('invalid', 'image_hash_invalid', 'An image is named by the SHA-256 of its bytes: 64 lower-case hex characters.');
    }
    const etag = `"${hash}"`;
    if (request.headers['if-none-match'] === etag) return reply.status(304).header('etag', etag).header('cache-control', CACHE_FOREVER).send();
    const image = await imageStore.get(hash);
    if (!image) throw new AppError('not_found', 'image_not_found', 'Image not found');
    return reply
      .header('content-type', image.contentType)
      .header('cache-control', CACHE_FOREVER)
      .header('etag', etag)
      .header('x-content-type-options', 'nosniff')
      .send(image.bytes);
  });
};
