import { afterAll, describe, expect, test } from 'vitest';
import { resetLinkIn, startSmtpFake } from '../support/smtp-server.ts';
import { checkA11y } from './support/a11y.ts';
import { desktop, phone, useBrowserSession } from './support/session.ts';
import { expectToast, newAccount, registerThroughApi } from './support/ui.ts';

// "Forgot password?" end to end (issue 35): the server mails through a real SMTP server on loopback, the test reads
// the link from the mail received and follows it in Chromium, at desktop and phone sizes, with axe-core on every screen.

const smtp = await startSmtpFake();
const session = useBrowserSession({ server: () => ({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Card Grader <no-reply@cards.test>' } }) });
afterAll(() => smtp.close());

describe('password reset by email', () => {
  test.each([
    ['desktop', desktop],
    ['phone', phone],
  ] as const)('on a %s: Forgot password? → the mailed link → a new password; the old session is signed out; the link works once', async (name, viewport) => {
    const page = await session.newPage(viewport);
    const account = newAccount('Reset');
    await registerThroughApi(page, session.baseUrl, account);
    const signedIn = await page.context().cookies();
    await page.context().clearCookies();

    await page.goto('/auth');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL((url) => url.pathname === '/forgot-password');
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await checkA11y(page, `forgot-password-${name}`);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Please enter a valid email').waitFor();
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await page.getByRole('status').filter({ hasText: "If an account uses that email, we've sent it a link" }).waitFor();
    await checkA11y(page, `forgot-password-sent-${name}`);

    const mail = await smtp.nextMailTo(account.email);
    expect(mail.headers.get('subject')).toBe('Reset your Card Grader password');
    const link = resetLinkIn(mail);
    expect(new URL(link).origin).toBe(session.baseUrl);

    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).waitFor();
    await checkA11y(page, `reset-password-${name}`);
    await page.getByLabel('New password', { exact: true }).fill('lowercase1');
    await page.getByLabel('Confirm new password').fill('Different1');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('Password must contain at least one uppercase and one lowercase letter').waitFor();
    await page.getByText('Passwords do not match').waitFor();
    await checkA11y(page, `reset-password-errors-${name}`);
    await page.getByLabel('New password', { exact: true }).fill('Engine2Difference');
    await page.getByLabel('Confirm new password').fill('Engine2Difference');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();
    await page.getByText('Your password has been changed and every device signed out.').waitFor();
    await checkA11y(page, `reset-password-done-${name}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

    // The session the account had before is over.
    await page.context().addCookies(signedIn);
    const before = await page.request.get('/api/session');
    expect((await before.json()).user).toBeNull();
    await page.context().clearCookies();

    await page.getByRole('link', { name: 'Sign in with your new password' }).click();
    await page.waitForURL((url) => url.pathname === '/auth');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill('Engine2Difference');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectToast(page, 'Login successful');

    // Once only: the same link now says so, and offers a new one.
    await page.goto(link);
    await page.getByRole('heading', { name: 'This link has already been used' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'This reset link has already been used.' }).waitFor();
    await checkA11y(page, `reset-password-used-${name}`);
    await page.getByRole('link', { name: 'Send me a new link' }).click();
    await page.waitForURL((url) => url.pathname === '/forgot-password');

    // A link cut short in the mail client.
    await page.goto(`${link.slice(0, -5)}`);
    await page.getByRole('heading', { name: 'This link is not valid' }).waitFor();
  });
});
