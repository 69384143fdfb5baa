import type { Response } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { useBrowserSession } from './support/session.ts';

// The home page's JavaScript and CSS as Chromium fetches them from the real server and build: what crosses the wire
// (brotli) against the files' own size. Issue 14: the JavaScript 200 KB or less.

const session = useBrowserSession();

describe('the home page over the wire', () => {
  test('sends its JavaScript and CSS brotli-compressed, the JavaScript within 200 KB', async () => {
    const page = await session.newPage();
    const responses: Response[] = [];
    page.on('response', (response) => {
      if (['script', 'stylesheet'].includes(response.request().resourceType())) responses.push(response);
    });
    await page.goto('/', { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Top Graders' }).waitFor();

    const totals = { script: { files: 0, raw: 0, wire: 0 }, stylesheet: { files: 0, raw: 0, wire: 0 } };
    for (const response of responses) {
      expect(response.status()).toBe(200);
      expect(await response.headerValue('content-encoding')).toBe('br');
      const kind = response.request().resourceType() as keyof typeof totals;
      totals[kind].files++;
      totals[kind].raw += (await response.body()).length;
      totals[kind].wire += (await response.request().sizes()).responseBodySize;
    }
    const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
    console.log(
      `home page: JavaScript ${totals.script.files} files, ${kb(totals.script.raw)} raw, ${kb(totals.script.wire)} over the wire; ` +
        `CSS ${totals.stylesheet.files} files, ${kb(totals.stylesheet.raw)} raw, ${kb(totals.stylesheet.wire)} over the wire`,
    );
    expect(totals.script.files).toBeGreaterThan(0);
    expect(totals.stylesheet.files).toBeGreaterThan(0);
    expect(totals.script.wire).toBeLessThanOrEqual(200_000);
    expect(totals.script.wire).toBeLessThan(totals.script.raw / 3);
  });
});
