import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { checkA11y } from './support/a11y.ts';
import { desktop, phone, useBrowserSession } from './support/session.ts';
import { expectToast, newAccount, registerThroughApi } from './support/ui.ts';
import { keepScreenshot } from './support/screenshots.ts';

// Issue 34 as a person uses it, on a desktop and on a 390×844 phone: Settings, Security, Your Data: leave the
// leaderboard, Download my data (a zip), Delete my account (the password confirmed; signed out everywhere).

const session = useBrowserSession();
const shots = '/tmp/shots-personal-data';
fs.mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) => keepScreenshot(page, { path: `${shots}/${name}.png`, fullPage: true });

describe('/settings: your data', () => {
  for (const [label, viewport] of [
    ['desktop', desktop],
    ['phone', phone],
  ] as const) {
    test(`on ${label}: leaderboard opt-out, Download my data, Delete my account`, async () => {
      const page = await session.newPage(viewport);
      const account = newAccount('Grace');
      await registerThroughApi(page, session.baseUrl, account);
      await page.goto('/settings?tab=security');
      await page.getByRole('heading', { name: 'Your Data' }).waitFor();
      await checkA11y(page, `settings-your-data-${label}`);
      await shot(page, `settings-your-data-${label}`);

      const leaderboard = page.getByRole('switch', { name: 'Show me on the leaderboard' });
      expect(await leaderboard.getAttribute('aria-checked')).toBe('true');
      await leaderboard.click();
      await expectToast(page, 'Leaderboard preference updated', 'You are no longer shown in Top Graders.');
      await expect.poll(() => leaderboard.getAttribute('aria-checked')).toBe('false');

      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download my data' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^card-grader-my-data-\d{4}-\d{2}-\d{2}\.zip$/);
      const zip = fs.readFileSync((await download.path())!);
      // A zip (stored entries): its JSON is readable in the bytes, with the person's own email.
      expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
      expect(zip.toString('utf8')).toContain(account.email);
      await expectToast(page, 'Download Ready');

      await page.getByRole('button', { name: 'Delete my account' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('heading', { name: 'Delete your account?' }).waitFor();
      await dialog.getByRole('button', { name: 'Delete my account' }).click();
      await dialog.getByText('Password is required').waitFor();
      await dialog.getByLabel('Password', { exact: true }).fill('Wrong-password1');
      await dialog.getByRole('button', { name: 'Delete my account' }).click();
      await dialog.getByText('Your current password is not correct').waitFor();
      await checkA11y(page, `settings-delete-dialog-${label}`);
      await shot(page, `settings-delete-dialog-${label}`);
      await dialog.getByLabel('Password', { exact: true }).fill(account.password);
      await dialog.getByRole('button', { name: 'Delete my account' }).click();
      await expectToast(page, 'Account Deleted', 'Your account and your personal data have been deleted.');
      await page.waitForURL((url) => url.pathname === '/');
      await shot(page, `settings-deleted-${label}`);
      expect((await page.request.get('/api/user')).status()).toBe(401);
      const signIn = await page.request.post('/api/agscard/login', { headers: { Origin: session.baseUrl }, data: { email: account.email, password: account.password } });
      expect(signIn.status()).toBe(401);
    });
  }
});
