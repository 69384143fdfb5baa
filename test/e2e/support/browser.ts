import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

export type RunningBrowser = { context: BrowserContext; close: () => Promise<void> };

/** Debian's Chromium, headless, quiet (no background traffic), with a fresh profile; pages resolve paths against `baseURL`. */
export async function launchBrowser(baseURL: string): Promise<RunningBrowser> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'card-grader-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    baseURL,
    viewport: { width: 1280, height: 800 },
    reducedMotion: 'reduce',
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
