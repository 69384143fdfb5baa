import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

// Every setting is an environment variable, read once here. `.env.example` lists them all.
const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** false (no proxy), a hop count, or a list of the proxies' addresses; `true` is refused (it trusts any client). */
const trustProxy = z
  .string()
  .optional()
  .transform((v, ctx): false | number | string[] => {
    const value = (v ?? '').trim();
    if (value === '' || value === 'false' || value === '0') return false;
    if (/^\d+$/.test(value)) return Number(value);
    if (value === 'true') {
      ctx.addIssue({
        code: 'custom',
        message: 'TRUST_PROXY=true would believe any X-Forwarded-For a client sends: give the number of proxies in front (for example 1) or their addresses (for example 10.0.0.0/8)',
      });
      return z.NEVER;
    }
    const addresses = value.split(',').map((a) => a.trim()).filter(Boolean);
    if (addresses.some((a) => !/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(a))) {
      ctx.addIssue({ code: 'custom', message: 'TRUST_PROXY takes a hop count or IP addresses and CIDR ranges, comma separated' });
      return z.NEVER;
    }
    return addresses;
  });

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalText,
  REDIS_URL: optionalText,
  // Namespace of the job queue's Redis keys, so several deployments (or tests) can share one Redis.
  QUEUE_PREFIX: z.string().regex(/^[\w-]+$/).default('tcg'),
  CPU_POOL_SIZE: z.coerce.number().int().min(1).default(os.availableParallelism()),
  // The nice value (Linux, per thread) the CPU pool's and OCR's threads run at, below the event loop's 0, so requests
  // never wait for pixel work to yield a core (src/infra/cpu-pool/thread-priority.ts). 0: the same priority. The
  // threads read it from the environment, so it is only checked here.
  BACKGROUND_THREAD_NICE: z.coerce.number().int().min(0).max(19).default(10),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  // Deadlines of a request's arrival (issue 34): the whole request, headers and body, within REQUEST_BODY_TIMEOUT_MS
  // of its first byte, its headers within REQUEST_HEADERS_TIMEOUT_MS. A client that sends a byte every few seconds
  // otherwise holds a connection (a file descriptor) for ever; the one cut gets a 408. Both at most the other way round
  // would make no sense, so the headers' deadline is at most the body's.
  REQUEST_BODY_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  REQUEST_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  // Open connections one client address may hold at once (a browser opens about six); more are closed as they come.
  // 0: no cap. Behind a proxy (TRUST_PROXY) every connection comes from the proxy, so there the proxy caps them.
  CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(256),
  // WebSockets (the live import progress): open at once per account and per client address, and how long one whose
  // client stops answering pings stays open.
  WS_PER_USER: z.coerce.number().int().min(1).default(10),
  WS_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
  WS_IDLE_TIMEOUT_MS: z.coerce.number().int().min(200).default(60_000),
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalText,
  OPENAI_MODEL: z.string().default('gpt-4o-mini'),
  IMAGE_FETCH_CONCURRENCY: z.coerce.number().int().min(1).default(50),
  IMAGE_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).default(2_000),
  IMAGE_MAX_BYTES: z.coerce.number().int().min(1024).default(15 * 1024 * 1024),
  IMAGE_MAX_PIXELS: z.coerce.number().int().min(1).default(50_000_000),
  // Bulk import (DESIGN.md §5): rows worked on at once per process, tries per row for network failures (an image the
  // engine refuses is never tried again), the first wait between tries (doubled each time, with jitter), and how
  // long a BullMQ worker's hold on a row lasts without renewal (a killed worker's rows go to another after this).
  IMPORT_CONCURRENCY: z.coerce.number().int().min(1).default(50),
  IMPORT_ROW_ATTEMPTS: z.coerce.number().int().min(1).default(3),
  IMPORT_RETRY_DELAY_MS: z.coerce.number().int().min(1).default(1_000),
  IMPORT_OUTAGE_WAIT_MS: z.coerce.number().int().min(0).default(120_000),
  IMPORT_JOB_LOCK_MS: z.coerce.number().int().min(500).default(30_000),
  // How often a process that works on rows looks for rows without an outcome whose job the queue no longer holds.
  IMPORT_SWEEP_MS: z.coerce.number().int().min(500).default(60_000),
  // Opens loopback image URLs for tests only; private, link-local and other ranges stay closed.
  ALLOW_LOOPBACK_IMAGE_URLS: flag,
  // Cookie Secure flag; on by default behind HTTPS in production.
  COOKIE_SECURE: flag,
  // Behind a load balancer: how many proxies stand in front (a hop count) or their addresses (IPs or CIDRs, comma
  // separated). The client address is then read from the right of X-Forwarded-For, past the trusted proxies only, so
  // a forged left part changes nothing. Never "trust everything": that would take any address a client claims.
  TRUST_PROXY: trustProxy,
  // The origins (scheme, host and port) the app is reached at, comma separated, e.g. https://cards.example.com: a
  // request for any other Host is refused (421), and state-changing requests must come from one of these (or
  // TRUSTED_ORIGINS). Unset: the server's own loopback addresses only, http://127.0.0.1:PORT and http://localhost:PORT,
  // as a server bound to 127.0.0.1 is reached; a DNS name pointed at 127.0.0.1 by an attacker (DNS rebinding) is not.
  PUBLIC_ORIGIN: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const origins: string[] = [];
      for (const entry of v.split(',').map((s) => s.trim()).filter(Boolean)) {
        const url = URL.canParse(entry) ? new URL(entry) : null;
        if (!url || !/^https?:$/.test(url.protocol) || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username) {
          ctx.addIssue({ code: 'custom', message: `PUBLIC_ORIGIN takes origins such as https://cards.example.com (scheme, host, port; no path), comma separated: not ${JSON.stringify(entry)}` });
          return z.NEVER;
        }
        origins.push(url.origin);
      }
      return origins;
    }),
  // Origins allowed to make state-changing requests besides the server's own.
  TRUSTED_ORIGINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean)),
  WEB_DIST_DIR: z.string().default('dist/web'),
  // Sign-in and registration attempts (DESIGN.md §6): per client address, and per account (email).
  // A correct sign-in clears its account's count.
  AUTH_RATE_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).default(10),
  AUTH_RATE_LIMIT_PER_ADDRESS_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  AUTH_RATE_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  AUTH_RATE_LIMIT_PER_ACCOUNT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(15 * 60),
  // Mail (a password reset link): through this SMTP server, `smtp://user:pass@host:587` (STARTTLS when offered) or
  // `smtps://…:465`; unset, each message goes to the log and to DATA_DIR/mail-outbox.jsonl instead.
  SMTP_URL: optionalText.refine((v) => v === undefined || /^smtps?:\/\/[^\s]+$/.test(v), 'SMTP_URL takes smtp://[user:pass@]host[:port] or smtps://…'),
  MAIL_FROM: z.string().trim().min(3).default('Card Grader <no-reply@localhost>'),
  // Grading is the costly call: per client address for guests, per account for signed-in users, a minute and a day.
  GRADE_LIMIT_GUEST_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  GRADE_LIMIT_GUEST_PER_DAY: z.coerce.number().int().min(1).default(200),
  GRADE_LIMIT_USER_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  GRADE_LIMIT_USER_PER_DAY: z.coerce.number().int().min(1).default(2000),
  // GET /metrics (Prometheus) answers only requests bearing this token (Authorization: Bearer …); unset, there is no
  // /metrics at all. At least 16 characters: it guards what the server is doing.
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()))
    .refine((v) => v === undefined || v.length >= 16, 'METRICS_TOKEN must be at least 16 characters'),
  // `npm run worker` serves its own /metrics (jobs run, grading stages, downloads, process figures) on this port, to the
  // METRICS_TOKEN's bearer; unset, none. 0 picks a free port (logged). Bind it where only Prometheus reaches (HOST).
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  // Feedback, guests included: per client address for guests, per account for signed-in users, an hour at a time.
  FEEDBACK_LIMIT_GUEST_PER_HOUR: z.coerce.number().int().min(1).default(10),
  FEEDBACK_LIMIT_USER_PER_HOUR: z.coerce.number().int().min(1).default(30),
  // Restoring the sample cards grades five cards a call: per client address for guests, per account for users, an hour.
  SAMPLE_CARDS_LIMIT_GUEST_PER_HOUR: z.coerce.number().int().min(1).default(5),
  SAMPLE_CARDS_LIMIT_USER_PER_HOUR: z.coerce.number().int().min(1).default(20),
  // An order's quote (the wizard asks for one at each change): per client address for guests, per account, a minute.
  QUOTE_LIMIT_GUEST_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  QUOTE_LIMIT_USER_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  // The key behind the client-address hash a refused sign-in records (issue 34): each day's key is an HMAC of this
  // secret and the date, so one address's attempts are told apart within a day, never linked across days, and
  // trying every IPv4 address needs this secret, which is not in the database. Unset: a random secret kept in the
  // database (server_secrets), which a copy of the database carries with it. At least 32 characters.
  ADDRESS_HASH_SECRET: optionalText.pipe(z.string().min(32, 'ADDRESS_HASH_SECRET must be at least 32 characters').optional()),
  // Payments (DESIGN.md §8): unset, the built-in test-mode processor (nothing is charged); set, a card processor's
  // HTTP API at this base URL with this secret key.
  PAYMENT_PROCESSOR_URL: optionalText,
  PAYMENT_PROCESSOR_KEY: optionalText,
  // Orders moving on at the grading provider (issue 33): unset, the built-in provider, whose orders an operator moves
  // (`npm run orders -- advance`); set, the provider's order status feed at this URL, read every ORDER_STATUS_POLL_MS
  // (src/infra/provider/order-status-feed.ts has the wire format), with ORDER_STATUS_FEED_TOKEN as its bearer token.
  ORDER_STATUS_FEED_URL: optionalText,
  ORDER_STATUS_FEED_TOKEN: optionalText,
  ORDER_STATUS_POLL_MS: z.coerce.number().int().min(100).default(60_000),
  // Where photos and annotated pictures are kept: unset, files under DATA_DIR/images (one machine); s3://BUCKET[/PREFIX],
  // an S3-compatible bucket that every API process and worker shares (the service mode). The bucket is reached with
  // the AWS SDK's standard variables: AWS_ENDPOINT_URL_S3 (unset for AWS itself), AWS_REGION, AWS_ACCESS_KEY_ID and
  // AWS_SECRET_ACCESS_KEY (unset: the SDK's default chain, such as an instance role); S3_FORCE_PATH_STYLE=true for
  // MinIO-style endpoints.
  IMAGE_STORE: z
    .string()
    .optional()
    .transform((v, ctx): ImageStoreSetting => {
      const setting = parseImageStoreSetting(v ?? '');
      if (setting) return setting;
      ctx.addIssue({ code: 'custom', message: 'IMAGE_STORE takes s3://BUCKET or s3://BUCKET/PREFIX (bucket names are lower-case letters, digits, dots and hyphens), or nothing for files under DATA_DIR/images' });
      return z.NEVER;
    }),
  AWS_ENDPOINT_URL_S3: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  AWS_REGION: z.string().trim().min(1).default('us-east-1'),
  AWS_ACCESS_KEY_ID: optionalText,
  AWS_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: flag,
  // Market prices (DESIGN.md §8): the public Pokémon TCG API (TCGplayer and Cardmarket prices by catalogue id), or
  // none. Unset, the API outside tests and none under NODE_ENV=test, so no test reaches the network by accident.
  PRICE_SOURCE: z.enum(['pokemontcg', 'none']).optional(),
  POKEMONTCG_API_URL: z.string().url().default('https://api.pokemontcg.io'),
  // Optional: the API answers without one, with a lower rate limit.
  POKEMONTCG_API_KEY: optionalText,
  PRICE_TIMEOUT_MS: z.coerce.number().int().min(100).default(2_000),
  // The daily price refresh of every identified card in collections and portfolios; 0 turns it off.
  PRICE_REFRESH_HOURS: z.coerce.number().min(0).default(24),
  // Per-grade prices for "Is it worth grading?" (issue 32): PriceCharting's API when a token is set, else none (the
  // grade odds are shown alone).
  PRICECHARTING_TOKEN: optionalText,
  PRICECHARTING_API_URL: z.string().url().default('https://www.pricecharting.com'),
});

export type ImageStoreSetting = { kind: 'files' } | { kind: 's3'; bucket: string; prefix: string };

/** IMAGE_STORE's value: '' or 'files' → files, `s3://bucket[/prefix]` → a bucket; null for anything else. */
export function parseImageStoreSetting(value: string): ImageStoreSetting | null {
  const text = value.trim();
  if (text === '' || text === 'files') return { kind: 'files' };
  const s3 = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(text);
  if (!s3) return null;
  return { kind: 's3', bucket: s3[1]!, prefix: (s3[2] ?? '').replace(/^\/+|\/+$/g, '') };
}

export type Config = Omit<z.infer<typeof configSchema>, 'IMAGE_STORE' | 'PRICE_SOURCE'> & {
  PRICE_SOURCE: 'pokemontcg' | 'none';
  /** Where PGlite keeps its files when DATABASE_URL is not set. */
  pgliteDir: string;
  /** The files adapter's folder (DATA_DIR/images), also the source of `npm run images -- copy`. */
  imagesDir: string;
  /** IMAGE_STORE, parsed. */
  imageStore: ImageStoreSetting;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema
    .refine((c) => c.REQUEST_HEADERS_TIMEOUT_MS <= c.REQUEST_BODY_TIMEOUT_MS, { path: ['REQUEST_HEADERS_TIMEOUT_MS'], message: 'REQUEST_HEADERS_TIMEOUT_MS must be at most REQUEST_BODY_TIMEOUT_MS (the whole request includes its headers)' })
    .safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const dataDir = path.resolve(parsed.data.DATA_DIR);
  const { IMAGE_STORE: imageStore, ...settings } = parsed.data;
  return {
    ...settings,
    imageStore,
    PRICE_SOURCE: parsed.data.PRICE_SOURCE ?? (parsed.data.NODE_ENV === 'test' ? 'none' : 'pokemontcg'),
    DATA_DIR: dataDir,
    pgliteDir: path.join(dataDir, 'pg'),
    imagesDir: path.join(dataDir, 'images'),
  };
}
