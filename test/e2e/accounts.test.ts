import { describe, expect, test } from 'vitest';
import { checkA11y } from './support/a11y.ts';
import { phone, useBrowserSession } from './support/session.ts';
import { expectToast, newAccount, registerThroughApi, slowDown, toasts } from './support/ui.ts';

const session = useBrowserSession();

describe('/auth', () => {
  test('register refuses bad input with the messages of SPEC.md §5, then creates the account', async () => {
    const page = await session.newPage();
    await page.goto('/auth');
    await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
    await page.getByText('Enter your credentials to access your collection').waitFor();
    await page.getByText('Authentication is powered by AGSCard.').waitFor();
    await checkA11y(page, 'auth-login');

    await page.getByRole('tab', { name: 'Register' }).click();
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    await page.getByText('Create an account to save and track your graded cards').waitFor();
    await checkA11y(page, 'auth-register');

    await page.getByRole('button', { name: 'Create Account' }).click();
    for (const message of [
      'First name is required',
      'Last name is required',
      'Please enter a valid email',
      'Phone number must be at least 10 digits',
    ]) {
      await page.getByText(message).waitFor();
    }
    expect(await page.getByText('Password must be at least 6 characters').count()).toBe(2);
    await expect.poll(() => page.getByLabel('First name').getAttribute('aria-invalid')).toBe('true');
    await checkA11y(page, 'auth-register-errors');

    const account = newAccount('Grace');
    await page.getByLabel('First name').fill(account.first_name);
    await page.getByLabel('Last name').fill(account.last_name);
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Phone').fill(account.phone);
    await page.getByLabel('Password', { exact: true }).fill('lowercase1');
    await page.getByLabel('Confirm password').fill('Different1');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Please enter a valid email').waitFor();
    await page.getByText('Password must contain at least one uppercase and one lowercase letter').waitFor();
    await page.getByText('Passwords do not match').waitFor();
    // The mismatch is reported on the confirmation field.
    expect(await page.getByLabel('Confirm password').getAttribute('aria-describedby')).toBe('register-password-confirmation-error');

    // Show/hide toggles.
    const password = page.getByLabel('Password', { exact: true });
    expect(await password.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Show password' }).first().click();
    expect(await password.getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    expect(await password.getAttribute('type')).toBe('password');

    await page.getByLabel('Email').fill(account.email);
    await password.fill(account.password);
    await page.getByLabel('Confirm password').fill(account.password);
    await page.getByLabel('Marketing Notifications').check();
    await slowDown(page, '/api/agscard/register');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('button', { name: 'Creating account...' }).waitFor();
    await expectToast(page, 'Registration Successful! ✓', 'Your account has been created successfully.');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: /^My Account/ }).waitFor();
  });

  test('a second registration with the same email is told the account already exists', async () => {
    const page = await session.newPage();
    const account = newAccount();
    await registerThroughApi(page, session.baseUrl, account);
    await page.context().clearCookies();

    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Register' }).click();
    await page.getByLabel('First name').fill(account.first_name);
    await page.getByLabel('Last name').fill(account.last_name);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Phone').fill(account.phone);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Confirm password').fill(account.password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expectToast(page, 'Account Already Exists', 'This email is already registered. Please try logging in instead.');
    expect(new URL(page.url()).pathname).toBe('/auth');
  });

  test('login refuses bad input, reports a wrong password, then signs in and honours returnTo', async () => {
    const page = await session.newPage();
    const account = newAccount('Ada');
    await registerThroughApi(page, session.baseUrl, account);
    await page.context().clearCookies();

    await page.goto('/auth?returnTo=/profile');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByText('Please enter a valid email').waitFor();
    await page.getByText('Password must be at least 6 characters').waitFor();

    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill('Wrong-password1');
    await page.locator('form[aria-label="Login"] button[type="submit"]').click();
    await expectToast(page, 'AGSCard Login failed');

    // One toast at a time: a second failure replaces the first.
    await Promise.all([
      page.waitForResponse('**/api/agscard/login'),
      page.locator('form[aria-label="Login"] button[type="submit"]').click(),
    ]);
    await page.waitForTimeout(200);
    expect(await toasts(page).count()).toBe(1);

    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await slowDown(page, '/api/agscard/login');
    const loginRequest = page.waitForRequest('**/api/agscard/login');
    await page.locator('form[aria-label="Login"] button[type="submit"]').click();
    // The browser names the page's origin on the write, which the server's CSRF check relies on.
    const headers = await (await loginRequest).allHeaders();
    expect(headers.origin).toBe(session.baseUrl);
    expect(headers['content-type']).toBe('application/json');
    await page.getByRole('button', { name: 'Signing in...' }).waitFor();
    await expectToast(page, 'Login successful', 'Welcome back, Ada!');
    await page.waitForURL((url) => url.pathname === '/profile');
  });

  test('a signed-in visitor to /auth goes straight on to returnTo, or home; other origins are ignored', async () => {
    const page = await session.newPage();
    await registerThroughApi(page, session.baseUrl, newAccount());

    await page.goto('/auth?returnTo=/profile');
    await page.waitForURL((url) => url.pathname === '/profile');
    await page.goto('/auth');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/auth?returnTo=//evil.example/steal');
    await page.waitForURL((url) => url.pathname === '/');
    expect(new URL(page.url()).host).toBe(new URL(session.baseUrl).host);
  });

  test('the close button goes home', async () => {
    const page = await session.newPage();
    await page.goto('/auth');
    await page.getByRole('link', { name: 'Close' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });
});

describe('account menu', () => {
  test('shows My Account with the username and its links, and logs out', async () => {
    const page = await session.newPage();
    await registerThroughApi(page, session.baseUrl, newAccount());
    const me = (await (await page.request.get('/api/user')).json()) as { username: string };

    await page.goto('/');
    await page.getByRole('button', { name: /^My Account/ }).click();
    const menu = page.getByRole('menu');
    await menu.getByText('My Account').waitFor();
    await menu.getByText(me.username).waitFor();
    const links = Object.fromEntries(
      await Promise.all(
        ['My Collection', 'My Portfolio', 'Profile', 'Settings'].map(async (name) => [
          name,
          await menu.getByRole('menuitem', { name }).getAttribute('href'),
        ]),
      ),
    );
    expect(links).toEqual({ 'My Collection': '/collection', 'My Portfolio': '/portfolio', Profile: '/profile', Settings: '/settings' });
    await checkA11y(page, 'account-menu');

    await slowDown(page, '/api/logout');
    await menu.getByRole('menuitem', { name: 'Logout' }).click();
    await menu.getByRole('menuitem', { name: 'Logging out...' }).waitFor();
    await expectToast(page, 'Logged out', 'You have been successfully logged out.');
    await page.getByRole('link', { name: 'Sign In' }).waitFor();
    expect((await page.request.get('/api/user')).status()).toBe(401);
  });

  test('a failed logout is reported as status, colon and body text (SPEC.md §8)', async () => {
    const page = await session.newPage();
    await registerThroughApi(page, session.baseUrl, newAccount());
    await page.route('**/api/logout', (route) => route.fulfill({ status: 500, body: 'storage unavailable' }));

    await page.goto('/');
    await page.getByRole('button', { name: /^My Account/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expectToast(page, 'Logout failed', '500: storage unavailable');

    // An empty body gives the status text instead.
    await page.unroute('**/api/logout');
    await page.route('**/api/logout', (route) => route.fulfill({ status: 503, body: '' }));
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expectToast(page, 'Logout failed', '503: Service Unavailable');
  });
});

describe('/profile', () => {
  test('signed out, it redirects to /auth', async () => {
    const page = await session.newPage();
    await page.goto('/profile');
    await page.waitForURL((url) => url.pathname === '/auth');
    await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
  });

  test('shows the account, with initials for the avatar, and works on a phone', async () => {
    const page = await session.newPage();
    const account = newAccount('Katherine');
    await registerThroughApi(page, session.baseUrl, account);

    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Katherine Lovelace' }).waitFor();
    await page.getByText(account.email).first().waitFor();
    await page.locator('#main').getByText('KL', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Account Information' }).waitFor();
    for (const term of ['Wallet balance', 'Role', 'Marketing', 'Provider account ID']) await page.getByText(term, { exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Edit Profile' }).getAttribute('href')).toBe('/settings');
    expect(await page.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
    await checkA11y(page, 'profile');

    await page.setViewportSize(phone);
    await page.getByRole('heading', { name: 'Account Information' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await checkA11y(page, 'profile-phone');

    await page.getByRole('button', { name: 'Logout' }).click();
    await expectToast(page, 'Logged out');
    await page.waitForURL((url) => url.pathname === '/auth');
  });
});
