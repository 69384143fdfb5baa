import type { FastifySchema } from 'fastify';
import { z } from 'zod';
import { errorBodySchema } from '../contracts/errors.ts';

// How a route describes itself in the OpenAPI document (/api/openapi.json): the zod contracts it validates with, as
// they are, plus its answers and the error statuses it may give. Documentation only: the handlers go on parsing with
// the same schemas (src/http/openapi.ts makes fastify neither validate nor serialise by them), so what the document
// says and what the route does come from one place.

export interface RouteDocs {
  summary: string;
  tags: readonly string[];
  /** A JSON body. */
  body?: z.ZodType;
  /** A multipart/form-data body: its text fields and, as `fileField(...)`, its files. */
  multipart?: z.ZodType;
  params?: z.ZodType;
  querystring?: z.ZodType;
  /** The success answers by status; `null` for an answer with no body. */
  responses: Record<number, z.ZodType | null>;
  /** Error statuses besides those every API route may give (below); each answers `{ error, code }`. */
  errors?: readonly number[];
  /** True for routes outside the API's sessions (probes, images, metrics). */
  noSession?: boolean;
  description?: string;
}

/** A file in a multipart body. */
export const fileField = (description: string) => z.string().meta({ format: 'binary', description });

/** Every route of the API may answer these: a refused Origin (writes), a rate limit reached, a bug. */
const COMMON_ERRORS = [500] as const;
const WRITE_ERRORS = [403] as const;

export function routeDocs(docs: RouteDocs, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' = 'GET'): FastifySchema {
  const response: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(docs.responses)) {
    response[status] = schema ?? z.null().meta({ description: 'No body' });
  }
  const errors = new Set<number>([...(docs.errors ?? []), ...COMMON_ERRORS, ...(method !== 'GET' && !docs.noSession ? WRITE_ERRORS : [])]);
  for (const status of [...errors].sort((a, b) => a - b)) response[String(status)] = errorBodySchema.meta({ description: `Refused (${status}): { error, code }` });
  return {
    summary: docs.summary,
    tags: [...docs.tags],
    ...(docs.description ? { description: docs.description } : {}),
    ...(docs.params ? { params: docs.params } : {}),
    ...(docs.querystring ? { querystring: docs.querystring } : {}),
    ...(docs.body ? { body: docs.body } : {}),
    ...(docs.multipart ? { body: docs.multipart, consumes: ['multipart/form-data'] } : {}),
    response,
  } as FastifySchema;
}
