import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { checkA11y } from './support/a11y.ts';
import { SAMPLE_CARDS_DIR } from '../../src/commands/cards/restore-sample-cards.ts';
import { desktop, phone, useBrowserSession } from './support/session.ts';
import { newAccount, registerThroughApi } from './support/ui.ts';
import { keepScreenshot } from './support/screenshots.ts';

// Issue 35, "What a new user meets": the smaller things a first visit ran into, at desktop and phone sizes.

const session = useBrowserSession();
const shots = '/tmp/shots-new-user';
fs.mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) => keepScreenshot(page, { path: `${shots}/${name}.png`, fullPage: true });
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

async function gradedCardId(page: Page, sample = '1-gem-mint.jpg'): Promise<string> {
  const response = await page.request.post('/api/grade-card', {
    headers: { Origin: session.baseUrl },
    multipart: { frontImage: { name: 'front.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(new URL(sample, SAMPLE_CARDS_DIR)) }, cardType: 'pokemon' },
  });
  if (!response.ok()) throw new Error(`grading failed: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

describe('the order wizard', () => {
  for (const [label, viewport] of viewports) {
    test(`checks the declared value on step 1, refuses $0 with a reason, and asks no quote until it is valid, on ${label}`, async () => {
      const page = await session.newPage(viewport);
      await registerThroughApi(page, session.baseUrl, newAccount('Quinn'));
      const cardId = await gradedCardId(page);
      const quotes: { status: number; declared: string }[] = [];
      page.on('response', (response) => {
        if (new URL(response.url()).pathname !== '/api/orders/quote') return;
        const body = JSON.parse(response.request().postData() ?? '{}') as { selection?: { totalDeclaredValue?: string } };
        quotes.push({ status: response.status(), declared: body.selection?.totalDeclaredValue ?? '' });
      });
      await page.goto(`/submit-card/${cardId}`);
      await expect.poll(() => page.getByRole('radio', { name: /^Budget/ }).isChecked()).toBe(true);
      const declared = page.getByLabel('Declared value of the card (USD)');

      // $0 (a card with no price starts there): Next stays on step 1 and says why, with the cursor in the field.
      await declared.fill('');
      await declared.pressSequentially('0');
      const zeroReason = 'Declared value must be more than $0: it is what the card is insured and protected for.';
      await page.getByText(zeroReason).waitFor();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('heading', { name: 'Service Level', level: 2 }).waitFor();
      expect(await declared.evaluate((input) => input === document.activeElement)).toBe(true);
      // Nor can a step header jump past it.
      await page.getByRole('button', { name: /^Step 3: Shipping/ }).click();
      await page.getByRole('heading', { name: 'Service Level', level: 2 }).waitFor();
      await keepScreenshot(page, { path: `${shots}/wizard-zero-${label}.png`, fullPage: true });
      await checkA11y(page, `wizard-declared-zero-${label}`);

      // Above the chosen level's cover: said here, where it is typed, not on step 3.
      await declared.fill('');
      await declared.pressSequentially('3000', { delay: 30 });
      await page.getByText('Budget protects cards declared up to $500. Please choose a higher service level.').waitFor();
      await page.getByRole('radio', { name: /^Priority/ }).check();
      await expect.poll(() => page.getByText(/protects cards declared up to/).count()).toBe(0);

      // Typed a key at a time: no quote is refused on the way.
      await declared.fill('');
      await declared.pressSequentially('12.5', { delay: 30 });
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('heading', { name: 'Additional Services' }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(quotes.filter((q) => q.status >= 400)).toEqual([]);
      expect(quotes.length).toBeGreaterThan(0);
      expect(quotes.every((q) => Number(q.declared) > 0)).toBe(true);
    });
  }
});

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const toastBox = async (page: Page) => {
  const item = page.getByRole('region', { name: /Notifications/ }).getByRole('listitem').first();
  await item.waitFor();
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
  return (await item.boundingBox())!;
};

describe('toasts', () => {
  for (const [label, viewport] of viewports) {
    test(`cover neither the button just pressed nor the result's actions, on ${label}`, async () => {
      const page = await session.newPage(viewport);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);

      // Feedback: Submit Feedback with nothing written.
      await page.goto('/feedback');
      const submit = page.getByRole('button', { name: 'Submit Feedback' });
      await submit.scrollIntoViewIfNeeded();
      await submit.click();
      const missing = await toastBox(page);
      await page.getByRole('region', { name: /Notifications/ }).getByText('Missing Feedback').waitFor();
      expect(overlaps(missing, (await submit.boundingBox())!)).toBe(false);
      await keepScreenshot(page, { path: `${shots}/toast-feedback-${label}.png` });
      await checkA11y(page, `toast-feedback-${label}`);

      // The result screen: Share says the link is copied, clear of every action (the phone's bar held at the bottom).
      const cardId = await gradedCardId(page);
      await page.goto(`/card/${cardId}`);
      const actions = page.getByRole('navigation', { name: 'Card actions' });
      await actions.getByRole('button', { name: 'Share' }).click();
      await page.getByRole('region', { name: /Notifications/ }).getByText('Link Copied').waitFor();
      const copied = await toastBox(page);
      for (const control of await actions.locator('a, button').all()) expect(overlaps(copied, (await control.boundingBox())!)).toBe(false);
      await keepScreenshot(page, { path: `${shots}/toast-share-${label}.png` });

      // A control at the top of the page: the toast goes to the bottom rather than over it.
      await page.goto('/feedback');
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.evaluate(() => {
        const button = document.createElement('button');
        button.textContent = 'Pressed up here';
        button.style.cssText = 'position:fixed;top:90px;left:50%;transform:translateX(-50%);z-index:30';
        button.addEventListener('click', () => document.querySelector<HTMLButtonElement>('form button[type="submit"]')?.click());
        document.body.append(button);
      });
      const high = page.getByRole('button', { name: 'Pressed up here' });
      await high.click();
      const below = await toastBox(page);
      expect(overlaps(below, (await high.boundingBox())!)).toBe(false);
      expect(await page.locator('[data-placement="bottom"]').count()).toBe(1);
    });
  }
});

describe('the smaller things', () => {
  for (const [label, viewport] of viewports) {
    test(`a guest's pages log no 401, file controls are the styled ones, and a photo's size limit is said and checked, on ${label}`, async () => {
      const page = await session.newPage(viewport);
      const refused: string[] = [];
      page.on('response', (response) => {
        if (response.status() === 401) refused.push(new URL(response.url()).pathname);
      });
      page.on('console', (message) => {
        if (message.type() === 'error') refused.push(`console: ${message.text()}`);
      });
      for (const route of ['/', '/collection', '/portfolio', '/import', '/feedback', '/leaderboard']) {
        await page.goto(route);
        await page.waitForLoadState('networkidle');
      }
      expect(refused).toEqual([]);

      // No browser "Choose File" anywhere: each file input is hidden behind its styled control.
      for (const [route, control] of [
        ['/', 'Drop an image here or click to browse'],
        ['/feedback', 'Choose an image'],
      ] as const) {
        await page.goto(route);
        await page.getByText(control).first().waitFor();
        for (const input of await page.locator('input[type="file"]').all()) {
          const box = await input.boundingBox();
          expect(box === null || (box.width <= 1 && box.height <= 1)).toBe(true);
        }
      }

      // One limit, said before a photo is chosen and checked the moment it is.
      await page.goto('/');
      await page.getByText(/up to 15 MB/).first().waitFor();
      expect(await page.getByText(/10 ?MB/).count()).toBe(0);
      // Grade Card, disabled until there is a front, says so.
      const grade = page.getByRole('button', { name: 'Grade Card' });
      expect(await grade.isDisabled()).toBe(true);
      expect(await page.locator(`#${await grade.getAttribute('aria-describedby')}`).innerText()).toBe('Add a photo of the front of the card to grade it.');
      await page.setInputFiles('#front-image', { name: 'huge.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(15 * 1024 * 1024 + 1, 0xff) });
      await page.getByRole('region', { name: /Notifications/ }).getByText('File Too Large').waitFor();
      await page.getByRole('region', { name: /Notifications/ }).getByText('a photo may be up to 15 MB', { exact: false }).waitFor();
      expect(await page.getByRole('button', { name: 'Remove front image' }).count()).toBe(0);

      // A disabled control says why: Sync for a guest.
      await page.goto('/collection');
      const sync = page.getByRole('button', { name: 'Sync' });
      expect(await sync.isDisabled()).toBe(true);
      const reasonId = await sync.getAttribute('aria-describedby');
      expect(reasonId).toBe('sync-disabled-reason');
      expect(await page.locator(`#${reasonId}`).innerText()).toBe('Sync needs an account linked to a grading provider: sign in first.');
      await keepScreenshot(page, { path: `${shots}/collection-disabled-reasons-${label}.png` });
      await checkA11y(page, `collection-disabled-reasons-${label}`);
    });

    test(`centering reads left then right as PSA writes it, and no error code is shown, on ${label}`, async () => {
      const page = await session.newPage(viewport);
      // A card with borders to measure, off centre.
      const cardId = await gradedCardId(page, '2-off-center.jpg');
      // A price source that could not be reached: the reason keeps its words, not the system's code.
      await page.route(`**/api/card/${cardId}`, async (route) => {
        const response = await route.fetch();
        const card = (await response.json()) as { identification: { estimatedValue: unknown } };
        card.identification.estimatedValue = { text: 'N/A', label: 'no market price: the Pokémon TCG API could not be reached (ENOTFOUND)', source: 'none' };
        await route.fulfill({ response, json: card });
      });
      await page.goto(`/card/${cardId}`);
      const value = page.getByTestId('estimated-value');
      await value.waitFor();
      expect(await value.innerText()).toContain('could not be reached');
      expect(await page.locator('body').innerText()).not.toContain('ENOTFOUND');

      const centering = page.getByTestId('centering-front');
      await centering.getByText('Left / Right').waitFor();
      {
        for (const axis of ['Left / Right', 'Top / Bottom']) {
          const text = await centering.locator('div').filter({ hasText: axis }).innerText();
          const match = /(\d+\.\d) \/ (\d+\.\d) mm\s*(\d+)\/(\d+)/.exec(text)!;
          const [first, second, firstShare, secondShare] = match.slice(1).map(Number) as [number, number, number, number];
          // The first side's share first: the narrower border has the smaller share.
          if (first !== second) expect(first < second).toBe(firstShare < secondShare);
          expect(firstShare + secondShare).toBe(100);
        }
      }
      await page.getByText('each ratio gives the left (or top) border’s share first, as PSA writes it.').waitFor();
    });
  }
});
