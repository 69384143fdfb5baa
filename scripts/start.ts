// `npm start`: builds the web app when it is missing or older than its sources, then starts the server.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadDotEnv } from '../src/infra/process-lifecycle.ts';

loadDotEnv();

const root = path.resolve(import.meta.dirname, '..');
const viteConfig = path.join(root, 'web', 'vite.config.ts');
// The same default as WEB_DIST_DIR in src/config.ts, resolved the same way (from the working folder).
const distDir = path.resolve(process.env.WEB_DIST_DIR || 'dist/web');
const builtIndex = path.join(distDir, 'index.html');

/** Newest modification time of the files below `dir` (0 when there are none). */
function newestChange(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && !entry.parentPath.includes(`${path.sep}node_modules`)) {
      newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

function webBuildIsStale(): boolean {
  if (!fs.existsSync(builtIndex)) return true;
  // The web app also compiles in the shared contracts and depends on the installed packages.
  const sources = Math.max(newestChange(path.join(root, 'web')), newestChange(path.join(root, 'src', 'contracts')), fs.statSync(path.join(root, 'package-lock.json')).mtimeMs);
  return sources > fs.statSync(builtIndex).mtimeMs;
}

if (!fs.existsSync(viteConfig)) {
  console.log('web/vite.config.ts is missing: starting the API without the web app.');
} else if (webBuildIsStale()) {
  console.log(`Building the web app into ${path.relative(root, distDir) || distDir} ...`);
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  // This process's Node (24), not whichever `node` comes first on PATH.
  const build = spawnSync(process.execPath, [vite, 'build', '--config', viteConfig, '--outDir', distDir], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('The web app did not build; see the errors above.');
    process.exit(build.status ?? 1);
  }
}

// Only synchronous work so far, so libuv's thread pool has not started: main sets its size first.
await import('../src/main.ts');
