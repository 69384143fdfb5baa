// An S3 server (s3rver, as in the tests) in a worker thread of its own, so a benchmark's server and its image store
// do not share an event loop: `startS3Thread()` in the main thread; the thread answers with its settings.
import { isMainThread, parentPort, Worker } from 'node:worker_threads';

export interface S3Thread {
  env: Record<string, string>;
  stop(): Promise<void>;
}

if (!isMainThread && parentPort) {
  const { startS3Server } = await import('../test/support/s3-server.ts');
  const server = await startS3Server('bench-images');
  const port = parentPort;
  port.postMessage({ env: server.env() });
  port.once('message', async () => {
    await server.destroy();
    port.postMessage('stopped');
  });
}

export function startS3Thread(): Promise<S3Thread> {
  const worker = new Worker(new URL(import.meta.url));
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', ({ env }: { env: Record<string, string> }) =>
      resolve({
        env,
        stop: () =>
          new Promise<void>((done) => {
            worker.once('message', () => void worker.terminate().then(() => done()));
            worker.postMessage('stop');
          }),
      }),
    );
  });
}
