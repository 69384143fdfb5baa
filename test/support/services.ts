import net from 'node:net';

// The machine's services; tests never mock them. Outside CI a missing service skips its suite
// with one line; in CI (CI=true) it fails instead, so a green CI has run every suite.
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const inCI = process.env.CI === 'true' || process.env.CI === '1';

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || defaultPort) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    // Generous: on a busy machine a worker's event loop can be held for seconds, and a service wrongly seen as down
    // fails CI.
    socket.setTimeout(5000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function requireService(name: string, url: string, defaultPort: number): Promise<boolean> {
  if (await reachable(url, defaultPort)) return true;
  if (inCI) throw new Error(`${name} is not reachable at ${url}; CI must run every suite.`);
  console.warn(`skipping ${name} suites: ${name} is not reachable at ${url}`);
  return false;
}

export const postgresAvailable = (): Promise<boolean> => requireService('PostgreSQL', TEST_DATABASE_URL, 5432);
export const redisAvailable = (): Promise<boolean> => requireService('Redis', TEST_REDIS_URL, 6379);
