import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { checkA11y } from './support/a11y.ts';
import { desktop, phone, useBrowserSession } from './support/session.ts';

// Issue 35, "What a new user meets": the smaller things a first visit ran into, at desktop and phone sizes.

const session = useBrowserSession();
const shots = '/tmp/shots-new-user';
fs.mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
const viewports = [
  ['desktop', desktop],
  ['phone', phone],
] as const;

describe('a guest on the portfolio', () => {
  for (const [label, viewport] of viewports) {
    test(`is asked to sign in to keep a portfolio, not offered an Add that fails, on ${label}`, async () => {
      const page = await session.newPage(viewport);
      await page.goto('/portfolio');
      await page.getByRole('heading', { name: 'My Portfolio', level: 1 }).waitFor();
      await page.getByRole('heading', { name: 'No cards found' }).waitFor();
      const signIn = page.getByRole('link', { name: 'Sign in to keep a portfolio' });
      expect(await signIn.count()).toBe(2);
      expect(await signIn.first().getAttribute('href')).toBe('/auth?returnTo=%2Fportfolio');
      expect(await page.getByRole('button', { name: 'Add Card(s)' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Add Your First Card' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Export CSV' }).count()).toBe(0);
      await shot(page, `guest-portfolio-${label}`);
      await checkA11y(page, `guest-portfolio-${label}`);
      await signIn.first().click();
      await page.waitForURL((url) => url.pathname === '/auth' && url.searchParams.get('returnTo') === '/portfolio');
    });
  }
});
