import { ensureWebBuild } from './web-build.ts';

// Built once before any browser test starts: test files run side by side, and two Vite builds into one dist/web would race.
export default function buildWebAppOnce(): void {
  ensureWebBuild();
}
