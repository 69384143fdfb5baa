import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCardsApp, type CardsHarness } from './cards-harness.ts';

// The OpenAPI document (/api/openapi.json): valid OpenAPI 3.1, and every route the server registers is in it with
// its answers and error codes. A route added without `schema: routeDocs(...)` fails here.

type Operation = {
  summary?: string;
  requestBody?: { content: Record<string, { schema: unknown }> };
  parameters?: { in: string; name: string }[];
  responses: Record<string, { description?: string; content?: Record<string, { schema: Record<string, unknown> }> }>;
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** fastify's `/api/card/:id` is OpenAPI's `/api/card/{id}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('OpenAPI document', () => {
  let h: CardsHarness;
  let document: Document;
  beforeAll(async () => {
    h = await startCardsApp('pglite', { METRICS_TOKEN: 'operator-metrics-token-0123456789' });
    const response = await h.app.inject({ url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['set-cookie']).toBeUndefined();
    document = response.json() as Document;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is valid OpenAPI 3.1', async () => {
    expect(document.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every route the server registers, each with a summary, its success answer and { error, code } refusals', () => {
    const routes = h.app.registeredRoutes.filter((r) => !r.hidden && r.method !== 'HEAD' && r.method !== 'OPTIONS');
    expect(routes.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const route of routes) {
      const operation = document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
      if (!operation) {
        missing.push(`${route.method} ${route.url}: not in the document`);
        continue;
      }
      const statuses = Object.keys(operation.responses);
      const success = statuses.filter((s) => /^2/.test(s));
      const refusals = statuses.filter((s) => /^[45]/.test(s));
      if (!operation.summary) missing.push(`${route.method} ${route.url}: no summary`);
      if (success.length === 0 || success.some((s) => !operation.responses[s]?.content && s !== '204')) missing.push(`${route.method} ${route.url}: no success answer with a body schema`);
      if (!refusals.includes('500')) missing.push(`${route.method} ${route.url}: no error answers`);
      for (const status of refusals) {
        const schema = operation.responses[status]?.content?.['application/json']?.schema as { properties?: Record<string, unknown>; required?: string[] } | undefined;
        if (!schema?.properties?.error || !schema.properties.code || !schema.required?.includes('code')) missing.push(`${route.method} ${route.url}: ${status} is not { error, code }`);
      }
      for (const name of route.url.match(/:(\w+)/g) ?? []) {
        if (!operation.parameters?.some((p) => p.in === 'path' && p.name === name.slice(1))) missing.push(`${route.method} ${route.url}: path parameter ${name} undocumented`);
      }
    }
    expect(missing, 'add `schema: routeDocs({...})` to these routes (src/http/route-docs.ts)').toEqual([]);
  });

  it('documents bodies from the same zod contracts the routes validate with: JSON and multipart', () => {
    const register = document.paths['/api/agscard/register']!.post!;
    const registerBody = register.requestBody!.content['application/json']!.schema as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(registerBody.properties)).toEqual(expect.arrayContaining(['first_name', 'last_name', 'email', 'phone', 'password', 'password_confirmation']));
    const feedback = document.paths['/api/feedback']!.post!;
    const form = feedback.requestBody!.content['multipart/form-data']!.schema as { properties: Record<string, { format?: string; enum?: string[] }> };
    expect(form.properties.image?.format).toBe('binary');
    expect(form.properties.category?.enum).toEqual(['general', 'bug', 'feature', 'improvement', 'ui', 'performance']);
    expect(Object.keys(feedback.responses)).toEqual(expect.arrayContaining(['201', '400', '413', '415', '429']));
    const grade = document.paths['/api/grade-card']!.post!;
    expect(Object.keys((grade.requestBody!.content['multipart/form-data']!.schema as { properties: object }).properties)).toEqual(
      expect.arrayContaining(['frontImage', 'backImage', 'frontImageUrl', 'backImageUrl', 'cardType']),
    );
  });

  it('has a page to read it at /api/docs', async () => {
    const page = await h.app.inject({ url: '/api/docs/', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('swagger-ui');
  });

  it('changes nothing about how routes validate: the handlers\' own refusals still answer', async () => {
    const browser = h.browser();
    const refused = await browser.post('/api/agscard/login', { email: 'not-an-email', password: 'x' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'invalid_request', error: 'email: Please enter a valid email' });
  });
});
