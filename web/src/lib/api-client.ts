import type { QueryFunction } from '@tanstack/react-query';
import { errorBodySchema } from '@contracts/errors';

/**
 * A non-OK answer (SPEC.md §8): the message is the status code, a colon and a space, then the body
 * text, or the status text when the body is empty.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly body: string;

  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  /** The `error` field of the server's error body: the message meant for the user, if there is one. */
  get serverMessage(): string | undefined {
    try {
      const parsed = errorBodySchema.safeParse(JSON.parse(this.body));
      return parsed.success ? parsed.data.error : undefined;
    } catch {
      return undefined;
    }
  }
}

async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const body = await response.text();
  throw new ApiError(response.status, response.statusText, body);
}

/**
 * The write helper of SPEC.md §7: sends cookies, and JSON with a JSON content type when there is a body.
 * Browsers add the Origin header to these requests, which the server checks (DESIGN.md §6).
 */
export async function apiRequest(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown): Promise<Response> {
  const response = await fetch(url, {
    method,
    credentials: 'include',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await throwIfNotOk(response);
  return response;
}

/** A multipart POST (files and text fields) with cookies; the browser sets the multipart content type. */
export async function apiUpload(url: string, form: FormData): Promise<Response> {
  const response = await fetch(url, { method: 'POST', credentials: 'include', body: form });
  await throwIfNotOk(response);
  return response;
}

/**
 * The read helper of SPEC.md §7: the first element of the query key is the URL. With `on401: 'returnNull'`
 * a 401 answer yields null (signed out) instead of an error; with `on404: 'returnNull'` so does a 404 (what is only
 * its owner's, read by anyone else).
 */
export function getQueryFn<T>({ on401, on404 = 'throw' }: { on401: 'returnNull' | 'throw'; on404?: 'returnNull' | 'throw' }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const url = queryKey[0];
    if (typeof url !== 'string') throw new Error('The first element of a query key must be the URL to read.');
    const response = await fetch(url, { credentials: 'include', signal });
    if (on401 === 'returnNull' && response.status === 401) return null;
    if (on404 === 'returnNull' && response.status === 404) return null;
    await throwIfNotOk(response);
    return (await response.json()) as T;
  };
}
