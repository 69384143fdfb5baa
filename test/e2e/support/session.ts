import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchBrowser, type RunningBrowser } from './browser.ts';
import { type RunningServer, type ServerOptions, startServer } from './server.ts';
import { repoRoot } from './web-build.ts';

export const desktop = { width: 1280, height: 800 };
export const phone = { width: 390, height: 844 };

const screenshotDir = path.join(repoRoot, 'test-results');

/**
 * One server and one browser per test file. Each test opens pages with `newPage`; they start with no
 * cookies, and when a test fails a screenshot of each of its pages is saved in test-results/.
 */
export function useBrowserSession(options: { server?: () => ServerOptions } = {}) {
  let server: RunningServer | undefined;
  let browser: RunningBrowser | undefined;
  let openPages: Page[] = [];

  beforeAll(async () => {
    server = await startServer(options.server?.());
    browser = await launchBrowser(server.baseUrl);
  });

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') {
      fs.mkdirSync(screenshotDir, { recursive: true });
      const name = context.task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
      await Promise.all(
        openPages.map((page, i) =>
          page.screenshot({ path: path.join(screenshotDir, `${name}-${i + 1}.png`), fullPage: true }).catch(() => undefined),
        ),
      );
    }
    await Promise.all(openPages.map((page) => page.close()));
    openPages = [];
    await browser?.context.clearCookies();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  return {
    get baseUrl(): string {
      if (!server) throw new Error('The server has not started.');
      return server.baseUrl;
    },
    async newPage(viewport = desktop): Promise<Page> {
      if (!browser) throw new Error('The browser has not started.');
      const page = await browser.context.newPage();
      await page.setViewportSize(viewport);
      // Two browser test files run at a time on two cores, each with a server grading photos: a wait is given room.
      page.setDefaultTimeout(20_000);
      openPages.push(page);
      return page;
    },
  };
}
