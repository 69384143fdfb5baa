import type { Logger } from 'pino';
import type { Clock } from '../clock/clock.ts';
import { outboxMailer } from './outbox-mailer.ts';
import { smtpMailer } from './smtp-mailer.ts';

// The mail port: what the app sends (today a password reset link), through SMTP when SMTP_URL is set, else to the
// server's log and a local outbox file, so the embedded default works with no mail server at all.

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text: every mail is readable without HTML. */
  text: string;
  html?: string;
}

export interface Mailer {
  /** Where mail goes, for the start-up line: `smtp://host:port` (no credentials) or the outbox file. */
  readonly location: string;
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export interface MailSettings {
  SMTP_URL?: string | undefined;
  MAIL_FROM: string;
  DATA_DIR: string;
}

export function openMailer(settings: MailSettings, logger: Pick<Logger, 'info'>, clock: Clock): Mailer {
  return settings.SMTP_URL
    ? smtpMailer({ url: settings.SMTP_URL, from: settings.MAIL_FROM })
    : outboxMailer({ dataDir: settings.DATA_DIR, from: settings.MAIL_FROM, logger, clock });
}
