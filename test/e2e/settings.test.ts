import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { checkA11y } from './support/a11y.ts';
import { desktop, phone, useBrowserSession } from './support/session.ts';
import { expectToast, newAccount, registerThroughApi } from './support/ui.ts';
import { keepScreenshot } from './support/screenshots.ts';

// Settings and the address book as a person uses them, on a desktop and on a 390×844 phone.

const session = useBrowserSession();
const shots = '/tmp/shots-orders';
fs.mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) => keepScreenshot(page, { path: `${shots}/${name}.png`, fullPage: true });

async function fillAddress(page: Page, prefix: string, values: { fullName: string; line1: string; city: string; country?: string; state: string; zip: string }) {
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Full name').fill(values.fullName);
  await dialog.getByLabel('Address line 1').fill(values.line1);
  await dialog.getByLabel('City').fill(values.city);
  if (values.country) await dialog.getByLabel('Country').selectOption(values.country);
  await dialog.getByLabel(values.country === 'Canada' ? 'Province' : 'State').selectOption(values.state);
  await dialog.getByLabel(values.country === 'Canada' ? 'Postal code' : 'ZIP code').fill(values.zip);
  void prefix;
}

describe('/settings', () => {
  test('signed out: access denied', async () => {
    const page = await session.newPage();
    await page.goto('/settings');
    await page.getByText('You must be logged in to access settings.').waitFor();
    await page.getByText('Access Denied:').waitFor();
    await checkA11y(page, 'settings-signed-out');
  });

  for (const [label, viewport] of [
    ['desktop', desktop],
    ['phone', phone],
  ] as const) {
    test(`address book on ${label}: add, validate, edit, set default, delete`, async () => {
      const page = await session.newPage(viewport);
      await registerThroughApi(page, session.baseUrl, newAccount('Ada'));
      await page.goto('/settings?tab=addresses');
      await page.getByText('No addresses found').waitFor();
      await checkA11y(page, `settings-addresses-empty-${label}`);

      // Bad input first: the carrier's rules, in the form.
      await page.getByRole('button', { name: 'Add Address' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('heading', { name: 'Add Address' }).waitFor();
      await dialog.getByRole('button', { name: 'Save Address' }).click();
      for (const message of ['Full name is required', 'Address line 1 is required', 'City is required', 'State is required', 'ZIP code is required']) {
        await dialog.getByText(message).waitFor();
      }
      await fillAddress(page, 'add', { fullName: 'Ada Lovelace', line1: '12 Analytical Way', city: 'Springfield', state: 'IL', zip: '6270' });
      await dialog.getByRole('button', { name: 'Save Address' }).click();
      await dialog.getByText('ZIP code must be 12345 or 12345-6789').waitFor();
      await checkA11y(page, `settings-address-dialog-errors-${label}`);
      await shot(page, `settings-address-dialog-errors-${label}`);
      await dialog.getByLabel('ZIP code').fill('62701');
      await dialog.getByRole('button', { name: 'Save Address' }).click();
      await expectToast(page, 'Address Added');
      const first = page.getByRole('listitem', { name: 'Ada Lovelace, Springfield' });
      await first.getByText('Default', { exact: true }).waitFor();

      // A Canadian address: lower case, no space, becomes A1A 1A1.
      await page.getByRole('button', { name: 'Add Address' }).click();
      await fillAddress(page, 'add', { fullName: 'Bob Babbage', line1: '1 Wellington St', city: 'Ottawa', country: 'Canada', state: 'ON', zip: 'k1a0b1' });
      await page.getByRole('dialog').getByRole('button', { name: 'Save Address' }).click();
      await expectToast(page, 'Address Added');
      const second = page.getByRole('listitem', { name: 'Bob Babbage, Ottawa' });
      await second.getByText('K1A 0B1').waitFor();
      expect(await second.getByText('Default', { exact: true }).count()).toBe(0);
      await checkA11y(page, `settings-addresses-list-${label}`);
      await shot(page, `settings-addresses-list-${label}`);

      await second.getByRole('button', { name: 'Set as Default' }).click();
      await expectToast(page, 'Default Address Updated');
      await second.getByText('Default', { exact: true }).waitFor();
      await expect.poll(() => first.getByText('Default', { exact: true }).count()).toBe(0);

      await first.getByRole('button', { name: 'Edit address of Ada Lovelace' }).click();
      await page.getByRole('dialog').getByRole('heading', { name: 'Edit Address' }).waitFor();
      await page.getByRole('dialog').getByLabel('City').fill('Chicago');
      await page.getByRole('dialog').getByRole('button', { name: 'Update Address' }).click();
      await expectToast(page, 'Address Updated');
      await page.getByRole('listitem', { name: 'Ada Lovelace, Chicago' }).waitFor();

      // Deleting the default promotes the other address.
      await second.getByRole('button', { name: 'Delete address of Bob Babbage' }).click();
      const confirm = page.getByRole('alertdialog');
      await confirm.getByText('Another address will become your default.').waitFor();
      await checkA11y(page, `settings-address-delete-${label}`);
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expectToast(page, 'Address Deleted');
      await page.getByRole('listitem', { name: 'Ada Lovelace, Chicago' }).getByText('Default', { exact: true }).waitFor();
      await expect.poll(() => page.getByRole('list', { name: 'Addresses' }).getByRole('listitem').count()).toBe(1);

      await page.getByRole('button', { name: 'Sync from AGSCard' }).click();
      await expectToast(page, 'Addresses Synced', 'Nothing to sync');
    });
  }

  test('general, notifications and security: marketing, password change, sign out everywhere', async () => {
    const page = await session.newPage(phone);
    const account = newAccount('Grace');
    await registerThroughApi(page, session.baseUrl, account);
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(account.email);
    await checkA11y(page, 'settings-general');
    await shot(page, 'settings-general-phone');

    await page.getByRole('tab', { name: 'Notifications' }).click();
    const toggle = page.getByRole('switch', { name: 'Marketing Notifications' });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    await expectToast(page, 'Preferences Updated');
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    await checkA11y(page, 'settings-notifications');
    await page.goto('/profile');
    await page.getByText('Subscribed', { exact: true }).waitFor();

    // A second browser signed in to the same account is signed out by the password change.
    const other = await session.newPage(desktop);
    const otherContext = other.context();
    void otherContext;
    await page.goto('/settings?tab=security');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('Current password is required').waitFor();
    await page.getByLabel('Current password').fill('Wrong-password1');
    await page.getByLabel('New password', { exact: true }).fill('Brand-new2');
    await page.getByLabel('Confirm new password').fill('Brand-new2');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expectToast(page, 'Password Error', 'Your current password is not correct');
    await page.getByLabel('Current password').fill(account.password);
    await checkA11y(page, 'settings-security');
    await shot(page, 'settings-security-phone');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expectToast(page, 'Password Changed', 'Every other device has been signed out.');
    // Still signed in here.
    await page.reload();
    await page.getByRole('heading', { name: 'Change Password' }).waitFor();
    const login = await page.request.post('/api/agscard/login', { headers: { Origin: session.baseUrl }, data: { email: account.email, password: 'Brand-new2' } });
    expect(login.ok()).toBe(true);

    await page.getByRole('button', { name: 'Sign Out of All Devices' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Sign Out Everywhere' }).click();
    await expectToast(page, 'Signed Out Everywhere');
    await page.waitForURL((url) => url.pathname === '/auth');
    expect((await page.request.get('/api/user')).status()).toBe(401);
  });
});
