import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { SAMPLE_CARDS_DIR } from '../../src/commands/cards/restore-sample-cards.ts';
import { useBrowserSession } from './support/session.ts';
import { newAccount, registerThroughApi } from './support/ui.ts';

// Issue 15: the built web app runs under the server's Content-Security-Policy (no inline script, no eval, pictures
// from here, blob: and data:, fetches to this origin) with no violation on any screen, a guest's and an account's.
// One page for the whole file: every screen is a fresh document load (page.goto), so each is checked under the header.

const session = useBrowserSession();

interface Violation {
  directive: string;
  blocked: string;
  source: string;
}

/** Collects every CSP violation the page reports: the DOM event, and Chromium's console message for good measure. */
async function watchViolations(page: Page): Promise<{ violations: () => Promise<Violation[]>; console: string[] }> {
  const consoleMessages: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) consoleMessages.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: unknown[] = [];
    (window as unknown as { __cspViolations: unknown[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push({ directive: event.effectiveDirective, blocked: event.blockedURI, source: `${event.sourceFile}:${event.lineNumber}` });
    });
  });
  return {
    console: consoleMessages,
    violations: () => page.evaluate(() => (window as unknown as { __cspViolations: Violation[] }).__cspViolations ?? []),
  };
}

/** Loads `url` as a new document and waits for the screen's heading (or its sign-in refusal); returns what the CSP refused on it. */
async function visit(page: Page, url: string, watch: Awaited<ReturnType<typeof watchViolations>>): Promise<{ url: string; violations: Violation[] }> {
  const response = await page.goto(url);
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await page
    .getByRole('heading')
    .or(page.getByText('Access Denied'))
    .first()
    .waitFor()
    .catch(async (error: unknown) => {
      throw new Error(`${url}: no heading (${String(error)}):\n${(await page.locator('body').innerText()).slice(0, 500)}`);
    });
  return { url, violations: await watch.violations() };
}

// Every screen once: a guest's where a guest sees something else (sign-in, refusals, not-found states), the rest
// signed in with data in them.
const guestScreens = ['/auth', '/settings', '/card/AAAAAAAAAAAAAAAAAAAAAA', '/portfolio/card/12', '/submit-card/AAAAAAAAAAAAAAAAAAAAAA', '/no-such-screen'];
const accountScreens = ['/', '/collection', '/portfolio', '/portfolio/card', '/import', '/feedback', '/settings', '/profile', '/orders', '/orders/123456'];

describe('the web app under the Content-Security-Policy', () => {
  test('every screen, a photo chosen and graded, then every screen signed in: no violation reported', async () => {
    const page = await session.newPage();
    const watch = await watchViolations(page);
    const seen: { url: string; violations: Violation[] }[] = [];

    // A guest grades a photo on the home screen: the blob: preview, the upload, the result with its pictures.
    await page.goto('/');
    await page.setInputFiles('#front-image', path.join(fileURLToPath(SAMPLE_CARDS_DIR), '1-gem-mint.jpg'));
    await page.locator('img[src^="blob:"]').first().waitFor();
    const answer = page.waitForResponse('**/api/grade-card', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Grade Card' }).click();
    const graded = (await (await answer).json()) as { id: string };
    expect(graded.id).toMatch(/^[\w-]{22}$/);
    await page.locator('img[src^="/api/images/"]').first().waitFor();
    // Served under the policy: every picture of the result loads (an image refused by the CSP never does).
    const loaded = () => page.locator('img[src^="/api/images/"]').evaluateAll((imgs) => imgs.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0));
    await expect.poll(loaded).toBe(true);
    const cardUrl = `/card/${graded.id}`;
    seen.push({ url: '/ (graded)', violations: await watch.violations() });

    for (const url of guestScreens) seen.push(await visit(page, url, watch));

    // Signed in (the guest's card moves to the account), the account's screens with data in them.
    await registerThroughApi(page, session.baseUrl, newAccount('Csp'));
    for (const url of [...accountScreens, cardUrl, cardUrl.replace('/card/', '/submit-card/')]) seen.push(await visit(page, url, watch));

    // The API's documentation page runs under the same policy.
    await page.goto('/api/docs');
    await page.locator('.swagger-ui').first().waitFor();
    await page.getByText('/api/grade-card').first().waitFor();
    seen.push({ url: '/api/docs', violations: await watch.violations() });

    expect(seen.filter((s) => s.violations.length > 0)).toEqual([]);
    expect(watch.console).toEqual([]);
  }, 150_000);
});
