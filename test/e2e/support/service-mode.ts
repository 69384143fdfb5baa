import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';
import { startS3Server, type S3TestServer } from '../../support/s3-server.ts';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../../support/services.ts';
import { repoRoot } from './web-build.ts';

// The service mode as an operator runs it, with real processes: API servers (`node src/main.ts`) and queue workers
// (`node src/workers/main.ts`) on one PostgreSQL (a schema of its own), one Redis (a key prefix of its own) and one
// S3 server on loopback (s3rver) for the images. Each process gets a data folder of its own, so nothing can be
// shared through the disk by accident.

export interface RunningProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** API servers only. */
  readonly baseUrl: string;
  /** Everything it wrote, stdout and stderr. */
  output(): string;
  /** Resolves when the process has exited (by itself or killed). */
  readonly exited: Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface ServiceMode {
  database: TestDatabase;
  s3: S3TestServer;
  /** The environment every process of this deployment shares. */
  env: NodeJS.ProcessEnv;
  startApi(name: string): Promise<RunningProcess>;
  startWorker(name: string): Promise<RunningProcess>;
  close(): Promise<void>;
}

const node = path.join(repoRoot, 'node_modules/.bin/node');
export const SERVICE_METRICS_TOKEN = 'service-mode-metrics-token-0123';

function launch(name: string, script: string, env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string; exited: Promise<void> } {
  const child = spawn(node, [script], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 2_000_000) output = output.slice(-1_000_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, output: () => output, exited };
}

async function waitUntil(what: string, ready: () => Promise<boolean>, failed: () => string | undefined, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const failure = failed();
    if (failure !== undefined) throw new Error(`${what} exited before it was ready:\n${failure}`);
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} was not ready within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function startServiceMode(overrides: NodeJS.ProcessEnv = {}): Promise<ServiceMode> {
  const database = await createTestDatabase('postgres');
  const s3 = await startS3Server();
  const queuePrefix = `svc-${randomBytes(5).toString('hex')}`;
  const dataDirs: string[] = [];
  const processes: RunningProcess[] = [];

  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${database.schema},public`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    DATABASE_URL: url.toString(),
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: queuePrefix,
    CPU_POOL_SIZE: '1',
    SHUTDOWN_TIMEOUT_MS: '3000',
    WEB_DIST_DIR: path.join(os.tmpdir(), 'no-web-build-here'),
    AUTH_RATE_LIMIT_PER_ADDRESS: '1000',
    GRADE_LIMIT_GUEST_PER_MINUTE: '1000',
    GRADE_LIMIT_USER_PER_MINUTE: '1000',
    // Bulk imports: rows' photos on a loopback server; a few rows at a time per worker, so both have some, and a
    // killed worker's rows handed to the other after 2 s rather than 30.
    ALLOW_LOOPBACK_IMAGE_URLS: 'true',
    IMPORT_CONCURRENCY: '2',
    IMPORT_JOB_LOCK_MS: '2000',
    METRICS_TOKEN: SERVICE_METRICS_TOKEN,
    // Workers serve their own /metrics on a free port (they log it); API processes serve theirs at /metrics.
    METRICS_PORT: '0',
    ...s3.env(),
    ...overrides,
  };

  function track(name: string, launched: ReturnType<typeof launch>, baseUrl: string): RunningProcess {
    const running: RunningProcess = {
      name,
      child: launched.child,
      baseUrl,
      output: launched.output,
      exited: launched.exited,
      async stop(signal = 'SIGTERM') {
        if (launched.child.exitCode !== null || launched.child.signalCode !== null) return;
        launched.child.kill(signal);
        const killLater = setTimeout(() => launched.child.kill('SIGKILL'), 10_000);
        await launched.exited;
        clearTimeout(killLater);
      },
    };
    processes.push(running);
    return running;
  }

  const dataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'service-mode-'));
    dataDirs.push(dir);
    return dir;
  };
  const exitedWith = (launched: ReturnType<typeof launch>) => (launched.child.exitCode !== null || launched.child.signalCode !== null ? launched.output() : undefined);

  return {
    database,
    s3,
    env,
    async startApi(name) {
      // A port of its own, chosen by the system: the process says where it listens in its log.
      const launched = launch(name, 'src/main.ts', { ...env, PORT: '0', DATA_DIR: dataDir() });
      let baseUrl = '';
      await waitUntil(
        name,
        async () => {
          const port = /"msg":"Server listening at http:\/\/127\.0\.0\.1:(\d+)"/.exec(launched.output())?.[1];
          if (!port) return false;
          baseUrl = `http://127.0.0.1:${port}`;
          return (await fetch(`${baseUrl}/readyz`)).status === 200;
        },
        () => exitedWith(launched),
      );
      return track(name, launched, baseUrl);
    },
    async startWorker(name) {
      const launched = launch(name, 'src/workers/main.ts', { ...env, DATA_DIR: dataDir() });
      await waitUntil(name, async () => launched.output().includes('worker running'), () => exitedWith(launched));
      return track(name, launched, '');
    },
    async close() {
      await Promise.all(processes.map((p) => p.stop()));
      await s3.destroy();
      await database.destroy();
      const redis = new Redis(TEST_REDIS_URL);
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${queuePrefix}:*`, 'COUNT', 1000);
          cursor = next;
          if (keys.length > 0) await redis.del(...keys);
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
      for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
