import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { checkA11y } from './support/a11y.ts';
import { phone, useBrowserSession } from './support/session.ts';

const session = useBrowserSession();

const items = ['Grade Cards', 'Collection', 'Portfolio', 'Import', 'Feedback', 'Settings'];

function mainNav(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}

async function currentItems(page: Page): Promise<string[]> {
  return mainNav(page).locator('a[aria-current="page"]').allInnerTexts();
}

describe('top bar', () => {
  test('shows the product name, BETA, the items in order, and Sign In; stays on top while scrolling', async () => {
    const page = await session.newPage();
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const banner = page.getByRole('banner');
    await banner.getByText('Card Grader', { exact: true }).waitFor();
    await banner.getByText('BETA', { exact: true }).waitFor();
    expect(await mainNav(page).getByRole('link').allInnerTexts()).toEqual(items);
    expect(await mainNav(page).getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
      '/',
      '/collection',
      '/portfolio',
      '/import',
      '/feedback',
      '/settings',
    ]);
    expect(await banner.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/auth');
    expect(await banner.evaluate((header) => getComputedStyle(header).position)).toBe('sticky');

    const footer = page.getByRole('contentinfo');
    await footer.getByText(`© ${new Date().getFullYear()} Card Grader`).waitFor();
    await footer.getByRole('link', { name: 'AGSCard' }).waitFor();
    await checkA11y(page, 'home');
  });

  test('highlights the item whose route equals the path or, except for home, starts it', async () => {
    const page = await session.newPage();
    // Polled: a route's code may still be loading right after goto, and the bar highlights once it has.
    const highlighted = () => expect.poll(() => currentItems(page), { timeout: 10_000 });
    await page.goto('/');
    await highlighted().toEqual(['Grade Cards']);
    await page.goto('/collection');
    await highlighted().toEqual(['Collection']);
    await page.goto('/portfolio/card/12');
    await highlighted().toEqual(['Portfolio']);
    await page.goto('/profile');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await currentItems(page)).toEqual([]);
  });

  test('Grade Cards reloads the page when already on /, and navigates in place elsewhere', async () => {
    const page = await session.newPage();
    await page.goto('/import');
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await mainNav(page).getByRole('link', { name: 'Grade Cards' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);

    await Promise.all([page.waitForEvent('load'), mainNav(page).getByRole('link', { name: 'Grade Cards' }).click()]);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(false);
  });

  test('on a 390×844 phone the items fold into a two-column menu', async () => {
    const page = await session.newPage(phone);
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await mainNav(page).count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await checkA11y(page, 'home-phone');

    const toggle = page.getByRole('button', { name: 'Open menu' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    const menu = mainNav(page);
    expect(await menu.getByRole('link').allInnerTexts()).toEqual(items);
    const boxes = await Promise.all(items.map((name) => menu.getByRole('link', { name }).boundingBox()));
    const [first, second, third] = boxes;
    // Two columns: items 1 and 2 share a row, item 3 starts the next one under item 1.
    expect(first?.y).toBe(second?.y);
    expect(second!.x).toBeGreaterThan(first!.x);
    expect(third?.x).toBe(first?.x);
    expect(third!.y).toBeGreaterThan(first!.y);
    expect(await page.getByRole('button', { name: 'Close menu' }).getAttribute('aria-expanded')).toBe('true');
    await checkA11y(page, 'mobile-menu');

    await menu.getByRole('link', { name: 'Feedback' }).click();
    await page.waitForURL((url) => url.pathname === '/feedback');
    expect(await mainNav(page).count()).toBe(0);
    await page.getByRole('button', { name: 'Open menu' }).click();
    expect(await currentItems(page)).toEqual(['Feedback']);
  });
});

describe('screens', () => {
  test('an unknown path shows 404 Page Not Found, with a way home', async () => {
    const page = await session.newPage();
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await checkA11y(page, 'not-found');
    await page.setViewportSize(phone);
    await checkA11y(page, 'not-found-phone');
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });

  test('/auth works on a phone', async () => {
    const page = await session.newPage(phone);
    await page.goto('/auth');
    await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await checkA11y(page, 'auth-login-phone');
    await page.getByRole('tab', { name: 'Register' }).click();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('First name is required').waitFor();
    await checkA11y(page, 'auth-register-errors-phone');
  });

  test('tooltips open after 700 ms of hovering', async () => {
    const page = await session.newPage();
    await page.goto('/auth');
    await page.getByRole('button', { name: 'Show password' }).hover();
    await page.waitForTimeout(400);
    expect(await page.getByRole('tooltip').count()).toBe(0);
    await page.getByRole('tooltip', { name: 'Show password' }).waitFor({ timeout: 2000 });
  });
});
