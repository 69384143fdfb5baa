import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

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

/**
 * Debian's Chromium, headless, whose fake camera (allowed without asking) plays `video`, a YUV4MPEG2 file: the
 * camera's picture, at that file's size.
 */
export function launchWithFakeCamera(video: string): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`],
  });
}

/**
 * Keeps, in the pages of `target`, the last file each form field was given (Playwright cannot read a multipart body
 * with a file in it); `sentFile` reads it back.
 */
export async function recordSentFiles(target: BrowserContext | Page): Promise<void> {
  await target.addInitScript(() => {
    const sent = new Map<string, Blob>();
    (window as unknown as { sentFiles: Map<string, Blob> }).sentFiles = sent;
    const append = FormData.prototype.append;
    FormData.prototype.append = function (this: FormData, name: string, value: string | Blob, filename?: string) {
      if (value instanceof Blob) sent.set(name, value);
      Reflect.apply(append, this, filename === undefined ? [name, value] : [name, value, filename]);
    } as typeof FormData.prototype.append;
  });
}

/** The bytes of the last file the page put in a form's `field` (see recordSentFiles). */
export async function sentFile(page: Page, field: string): Promise<Buffer> {
  const bytes = await page.evaluate(async (name) => {
    const file = (window as unknown as { sentFiles: Map<string, Blob> }).sentFiles.get(name);
    return file ? Array.from(new Uint8Array(await file.arrayBuffer())) : null;
  }, field);
  if (!bytes) throw new Error(`the page sent no file in ${field}`);
  return Buffer.from(bytes);
}
