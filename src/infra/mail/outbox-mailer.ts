import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Clock } from '../clock/clock.ts';
import type { Mailer } from './mailer.ts';

/** The outbox's file in the data directory: one JSON object a line, each a message as it would have been sent. */
export const OUTBOX_FILE = 'mail-outbox.jsonl';

/**
 * The embedded default, without a mail server: each message is appended to DATA_DIR/mail-outbox.jsonl (recipient
 * included: it is the mail itself, kept beside the database that holds the same address) and its text written to
 * the log, where whoever runs the server finds a reset link. The log line names no recipient: logs travel further
 * than the data folder.
 */
export function outboxMailer(options: { dataDir: string; from: string; logger: Pick<Logger, 'info'>; clock: Clock }): Mailer {
  const file = path.join(options.dataDir, OUTBOX_FILE);
  return {
    location: file,
    async send(message) {
      await mkdir(options.dataDir, { recursive: true });
      const line = { at: options.clock.now().toISOString(), from: options.from, ...message };
      await appendFile(file, `${JSON.stringify(line)}\n`, { mode: 0o600 });
      options.logger.info({ subject: message.subject, outbox: file, text: message.text }, 'mail written to the outbox (no SMTP_URL set)');
    },
    async close() {},
  };
}
