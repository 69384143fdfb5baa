import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3ImageStoreOptions } from '../../src/infra/image-storage/index.ts';

// An S3 server on loopback for tests (s3rver: the S3 wire protocol over a folder), standing in for AWS S3 or MinIO.
// It can be stopped and started again on the same port and folder, as a store that goes down and comes back.

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  /** The adapter's settings for this server (add a prefix). */
  storeOptions(prefix?: string): S3ImageStoreOptions;
  /** The environment a process of ours needs to use it (IMAGE_STORE and the AWS variables). */
  env(prefix?: string): Record<string, string>;
  /** How many times an object was written under this key (s3rver's put events), to see that a put wrote nothing. */
  writesOf(key: string): number;
  /** Stops answering at once: open connections are cut. */
  stop(): Promise<void>;
  /** Answers again, on the same port, with the same objects. */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export async function startS3Server(bucket = 'card-images'): Promise<S3TestServer> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  let port = 0;
  let instance: S3rver | undefined;
  const writes = new Map<string, number>();

  async function start(): Promise<void> {
    instance = new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
    (instance as unknown as NodeJS.EventEmitter).on('event', (event: { Records: { eventName: string; s3: { object: { key: string } } }[] }) => {
      for (const record of event.Records) {
        if (record.eventName.startsWith('ObjectCreated')) writes.set(record.s3.object.key, (writes.get(record.s3.object.key) ?? 0) + 1);
      }
    });
    const address = (await instance.run()) as AddressInfo;
    port = address.port;
  }
  async function stop(): Promise<void> {
    const running = instance;
    instance = undefined;
    if (!running) return;
    const server = (running as unknown as { httpServer: Server }).httpServer;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }
  await start();
  const endpoint = `http://127.0.0.1:${port}`;

  return {
    endpoint,
    bucket,
    storeOptions: (prefix = '') => ({ bucket, prefix, endpoint, region: 'us-east-1', forcePathStyle: true, credentials: CREDENTIALS }),
    env: (prefix = '') => ({
      IMAGE_STORE: `s3://${bucket}${prefix ? `/${prefix}` : ''}`,
      AWS_ENDPOINT_URL_S3: endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    }),
    writesOf: (key) => writes.get(key) ?? 0,
    start,
    stop,
    async destroy() {
      await stop();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
