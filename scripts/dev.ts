// `npm run dev`: the API server restarting on changes (port 3000) and Vite's dev server side by side.
// Open the address Vite prints; it passes /api and /ws on to the server.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');

// The browser talks to Vite (port 5173), which passes /api on with the Host it was given (changeOrigin: false): the
// server answers for those origins as well as its own (PUBLIC_ORIGIN, issue 34), unless one is set already.
const devOrigins = ['http://localhost:5173', 'http://127.0.0.1:5173', 'http://localhost:3000', 'http://127.0.0.1:3000'].join(',');
const children: ChildProcess[] = [
  spawn(process.execPath, ['--watch', 'src/main.ts'], { cwd: root, stdio: 'inherit', env: { ...process.env, PUBLIC_ORIGIN: process.env.PUBLIC_ORIGIN ?? devOrigins } }),
  spawn(process.execPath, [vite, '--config', 'web/vite.config.ts'], { cwd: root, stdio: 'inherit' }),
];

let stopping = false;
function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
}

// When one of the two ends, the other goes too: half a dev setup only confuses.
for (const child of children) child.once('exit', (code) => stopAll(code ?? 1));
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
