import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runRegradeCommand } from '../../scripts/regrade.ts';
import { loadConfig } from '../../src/config.ts';
import { randomIds, systemClock } from '../../src/infra/clock/clock.ts';
import { openDatabase } from '../../src/infra/database/index.ts';
import { createEventStore } from '../../src/infra/event-store/index.ts';
import { createFileImageStore } from '../../src/infra/image-storage/file-image-store.ts';
import { createInProcessQueue } from '../../src/infra/queue/index.ts';
import { inlineProjections } from '../../src/projections/index.ts';
import { renderSyntheticCard } from '../../src/vision/index.ts';
import { measureGradeWith } from '../../src/workers/regrade/regrade-job.ts';
import { seedPgliteDataDir } from '../support/pglite-template.ts';
import { gradeThroughApi } from './grading-fixtures.ts';
import { checkA11y } from './support/a11y.ts';
import { launchBrowser, type RunningBrowser } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { desktop, phone } from './support/session.ts';
import { newAccount, registerThroughApi } from './support/ui.ts';

// Issue 33 as an operator and a collector meet it: a card graded, a professional grade reported; the operator stops
// the server and runs the regrade with a newer engine (its version injected, as a release would change it) on the
// same data folder; back up, the card's page lists both grades, each with its engine and date, and the report, at
// desktop and phone sizes, with axe-core.

const NEWER = { vision: 'e2e0newer000', calibration: '2026-11-27@e2e0newer000' };

describe('a card page\'s grade history after npm run regrade', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'card-grader-e2e-regrade-'));
  let server: RunningServer;
  let port: number;
  let browser: RunningBrowser;

  beforeAll(async () => {
    await seedPgliteDataDir(dataDir);
    server = await startServer({ dataDir });
    port = Number(new URL(server.baseUrl).port);
    browser = await launchBrowser(server.baseUrl);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const newPage = async (viewport: { width: number; height: number }): Promise<Page> => {
    const page = await browser.context.newPage();
    await page.setViewportSize(viewport);
    page.setDefaultTimeout(20_000);
    return page;
  };

  /** The operator's run, on the stopped server's data folder. */
  async function regradeWhileStopped(): Promise<string[]> {
    await server.stop();
    const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production' });
    const database = await openDatabase(config);
    const queue = createInProcessQueue({ logger: pino({ level: 'silent' }) });
    const lines: string[] = [];
    try {
      const code = await runRegradeCommand([], {
        database,
        store: createEventStore(database, { inline: inlineProjections }),
        imageStore: createFileImageStore(config.imagesDir),
        queue,
        measure: measureGradeWith({ maxPixels: config.IMAGE_MAX_PIXELS, engine: async () => NEWER }),
        engine: async () => NEWER,
        clock: systemClock,
        ids: randomIds,
        out: (line) => lines.push(line),
        pollMs: 100,
      });
      expect(code).toBe(0);
    } finally {
      await queue.close(5_000);
      await database.close();
    }
    server = await startServer({ dataDir, port });
    return lines;
  }

  test('both grades with their engines and dates, and the professional report, at desktop and phone sizes', async () => {
    const page = await newPage(desktop);
    await registerThroughApi(page, server.baseUrl, newAccount('Erika'));
    // At 12 px/mm, not the renderer's 20: the history is what is checked, and the photo is measured twice (graded, regraded).
    const card = await gradeThroughApi(page, server.baseUrl, { front: await renderSyntheticCard({ pxPerMm: 12, photo: { noise: 2 } }, 61) });
    const reported = await page.request.post(`/api/card/${card.id}/professional-grade`, { headers: { Origin: server.baseUrl }, multipart: { company: 'CGC', grade: '9.5', cert: '4100123456' } });
    expect(reported.status()).toBe(200);

    await page.goto(`/card/${card.id}`);
    const history = page.getByTestId('grade-history');
    await history.waitFor();
    expect(await history.locator('li').count()).toBe(2);

    const lines = await regradeWhileStopped();
    expect(lines[0]).toMatch(/^1 cards graded; 0 already graded by engine e2e0newer000@.*; 1 to regrade$/);
    expect(lines.at(-1)).toBe('1 regraded');

    await page.reload();
    await history.waitFor();
    await expect.poll(() => history.locator('li').count()).toBe(3);
    const items = await history.locator('li').allInnerTexts();
    // Newest first: the regrade, then the report, then the grading.
    expect(items[0]).toMatch(/Regraded[\s\S]*Engine e2e0newer000, calibration 2026-11-27/);
    expect(items[1]).toMatch(/CGC 9\.5[\s\S]*Professional, reported[\s\S]*Cert 4100123456/);
    expect(items[2]).toMatch(/Graded[\s\S]*Engine [0-9a-f]{12}, calibration \d{4}-\d{2}-\d{2}/);
    expect(items[2]).toContain(card.overallGrade.toFixed(1));
    await checkA11y(page, 'grade-history-desktop');

    await page.setViewportSize(phone);
    await page.reload();
    await history.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await checkA11y(page, 'grade-history-phone');
    await page.close();
  }, 180_000);
});
