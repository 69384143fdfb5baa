import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { seedPgliteDataDir } from '../../support/pglite-template.ts';
import { repoRoot } from './web-build.ts';

export type RunningServer = { baseUrl: string; stop: () => Promise<void> };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

export interface ServerOptions {
  /** A data directory to start on and keep (a restart on the same data); default a fresh one, removed on stop. */
  dataDir?: string;
  /** Default a free one. */
  port?: number;
  /** Settings beside the tests' own (an external service's address). */
  env?: NodeJS.ProcessEnv;
}

/**
 * Starts the real server (`node src/main.ts`) in embedded mode on a free port with a fresh data
 * directory, and waits until it answers HTTP.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'card-grader-e2e-'));
  if (!options.dataDir) await seedPgliteDataDir(dataDir);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Every account in these tests signs up and grades from 127.0.0.1; the limits have tests of their own.
    AUTH_RATE_LIMIT_PER_ADDRESS: '1000',
    GRADE_LIMIT_GUEST_PER_MINUTE: '1000',
    SAMPLE_CARDS_LIMIT_GUEST_PER_HOUR: '1000',
    SAMPLE_CARDS_LIMIT_USER_PER_HOUR: '1000',
    QUOTE_LIMIT_GUEST_PER_MINUTE: '1000',
    WS_PER_ADDRESS: '1000',
    // No test reaches the network: no market prices (the price source has tests of its own, against a fake).
    PRICE_SOURCE: 'none',
    ...options.env,
  };
  // Embedded database and queue: the browser tests need no services.
  delete env.DATABASE_URL;
  delete env.REDIS_URL;

  const child = spawn(path.join(repoRoot, 'node_modules/.bin/node'), ['src/main.ts'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    process.stderr.write(chunk);
  });

  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killLater = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited(child);
      clearTimeout(killLater);
    }
    if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`The server exited with code ${child.exitCode} before answering:\n${stderr}`);
    }
    try {
      await fetch(`${baseUrl}/api/user`);
      return { baseUrl, stop };
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`The server did not answer on ${baseUrl} within 90 s:\n${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
