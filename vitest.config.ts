import { defineConfig } from 'vitest/config';

/**
 * Files that read process-wide state the app keeps in its modules (the metrics registry's counts), which other files'
 * apps in a shared worker would have moved: each gets modules of its own.
 */
const OWN_MODULES = ['test/http/metrics.test.ts'];

export default defineConfig({
  test: {
    // Vitest's default on a 2-core machine is one worker: the suite's files would run one after another, most of them
    // waiting on PostgreSQL, Redis or a socket rather than the CPU.
    maxWorkers: 3,
    // Grading threads at the event loop's priority in tests: several files share two cores here, and pool threads
    // niced below the other files' processes (and their browsers) waited behind them, twice as long as a file
    // allows. The priority is for a server's own event loop against its own grading, which bench:load measures.
    env: { BACKGROUND_THREAD_NICE: '0' },
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'server',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', ...OWN_MODULES],
          environment: 'node',
          // Files share a worker's modules instead of importing the app afresh each (1.8 s of CPU a file, 166 s
          // in all on a slow machine): every file builds its own app, database schema and queue prefix anyway.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-isolated',
          include: [...OWN_MODULES],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          // Each browser test file starts its own server on a free port with its own data directory and its own
          // Chromium, so files can run side by side; the web app is built once before any of them. A file keeps two
          // processes busy (the server grading, the browser rendering), so two at a time fill two cores. They run
          // after the server files, as a group of their own (a project's own worker count makes one), not among them.
          globalSetup: ['test/e2e/support/global-setup.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
