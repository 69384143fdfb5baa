import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../../..');
const builtIndex = path.join(repoRoot, 'dist/web/index.html');
// Everything the web bundle is made from; a change to any of them makes dist/web stale.
const sources = ['web/index.html', 'web/vite.config.ts', 'web/src', 'web/public', 'src/contracts'].map((p) => path.join(repoRoot, p));

function newestChange(file: string): number {
  if (!fs.existsSync(file)) return 0;
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(file).map((name) => newestChange(path.join(file, name))));
}

/** Builds the web app with Vite unless dist/web is newer than every source it is built from. */
export function ensureWebBuild(): void {
  const builtAt = fs.existsSync(builtIndex) ? fs.statSync(builtIndex).mtimeMs : 0;
  if (builtAt > Math.max(...sources.map(newestChange))) return;
  execFileSync(path.join(repoRoot, 'node_modules/.bin/vite'), ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
    cwd: repoRoot,
    stdio: ['ignore', 'inherit', 'inherit'],
    // vitest sets NODE_ENV=test, which would give React's development build.
    env: { ...process.env, NODE_ENV: 'production', PATH: `${path.join(repoRoot, 'node_modules/.bin')}:${process.env.PATH ?? ''}` },
  });
}
