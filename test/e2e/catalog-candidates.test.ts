import { describe, expect, test } from 'vitest';
import type { CardResult } from '../../src/contracts/cards.ts';
import { renderNamedCardPhoto } from '../identification/named-card.ts';
import { checkA11y } from './support/a11y.ts';
import { desktop, phone, useBrowserSession } from './support/session.ts';
import { expectToast, newAccount, registerThroughApi } from './support/ui.ts';

// Issue 32: when identification is not sure which catalogue card it is, the result screen offers the best candidates
// with set, number and year; one click confirms one, and the card's name, set and number follow it.

const session = useBrowserSession();

describe('confirming the catalogue card among the candidates', () => {
  for (const [label, viewport] of [
    ['desktop', desktop],
    ['phone', phone],
  ] as const) {
    test(`a card read as 12/149 alone offers both sets' cards, and one click confirms one, on ${label}`, async () => {
      const page = await session.newPage(viewport);
      await registerThroughApi(page, session.baseUrl, newAccount('Kukui'));
      // No name, 12/149: Sun & Moon's Decidueye-GX and Boundaries Crossed's Servine both print it.
      const photo = Buffer.from(await renderNamedCardPhoto({ name: '', number: '12/149', seed: 61, hp: 30, attacks: [], illustrator: 'Nobody Known' }));
      await page.goto('/');
      await page.setInputFiles('#front-image', { name: 'two-sets.jpg', mimeType: 'image/jpeg', buffer: photo });
      await page.getByRole('button', { name: 'Grade Card' }).click();
      await page.getByTestId('overall-grade').waitFor({ timeout: 60_000 });

      const offered = page.getByRole('region', { name: 'Not sure which card this is: confirm the card' });
      await offered.waitFor();
      await offered.getByText('Sun & Moon · #12/149 · 2017').waitFor();
      await offered.getByText('Boundaries Crossed · #12/149 · 2012').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await checkA11y(page, `catalog-candidates-${label}`);

      await offered.getByRole('button', { name: 'This is Decidueye-GX, Sun & Moon, #12/149, 2017' }).click();
      await expectToast(page, 'Card identified', 'Decidueye-GX, Sun & Moon #12/149.');
      await page.getByRole('heading', { level: 1, name: 'Decidueye-GX' }).waitFor();
      expect(await offered.count()).toBe(0);
      await page.getByTestId('catalog-match').getByText('sm1-12 (confirmed by its owner)').waitFor();
      await checkA11y(page, `catalog-candidates-confirmed-${label}`);

      // Recorded: the card's own page says so after a reload.
      const id = new URL(page.url()).pathname.split('/').pop()!;
      const card = (await (await page.request.get(`/api/card/${id}`)).json()) as CardResult;
      expect(card).toMatchObject({ cardName: 'Decidueye-GX', cardSet: 'Sun & Moon', cardNumber: '12/149', identification: { catalogId: 'sm1-12', cardYear: '2017' } });
      await page.goto(`/card/${id}`);
      await page.getByRole('heading', { level: 1, name: 'Decidueye-GX' }).waitFor();
    });
  }
});
