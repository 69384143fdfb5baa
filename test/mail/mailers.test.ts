import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMailer } from '../../src/infra/mail/mailer.ts';
import { OUTBOX_FILE } from '../../src/infra/mail/outbox-mailer.ts';
import { startSmtpFake, type SmtpFake } from '../support/smtp-server.ts';

// The mail port's two adapters: SMTP (nodemailer) against a real SMTP server on loopback, and the embedded default's
// log and outbox file.

const clock = { now: () => new Date('2026-03-01T12:00:00.000Z') };
const FROM = 'Card Grader <no-reply@cards.test>';
const longLink = `http://cards.test/reset-password?token=${'A1b2_C3d-'.repeat(5)}`;

describe('the SMTP adapter', () => {
  let smtp: SmtpFake;
  beforeAll(async () => {
    smtp = await startSmtpFake({ auth: { user: 'mailer', pass: 's3cret pass' } });
  });
  afterAll(async () => smtp?.close());

  it('delivers to the server with its credentials: envelope, headers and a text whose long link survives the encoding', async () => {
    const mailer = openMailer({ SMTP_URL: smtp.url, MAIL_FROM: FROM, DATA_DIR: '/nonexistent' }, { info: () => {} }, clock);
    expect(mailer.location).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/); // no credentials in what start-up prints
    await mailer.send({ to: 'ada@example.com', subject: 'Reset your Card Grader password — ünïcode', text: `Choose a new password here:\n${longLink}\n\n100% yours` });
    await mailer.close();
    const mail = await smtp.nextMailTo('ada@example.com');
    expect(mail.from).toBe('no-reply@cards.test');
    expect(mail.to).toEqual(['ada@example.com']);
    expect(mail.headers.get('from')).toBe(FROM);
    expect(mail.headers.get('subject')).toMatch(/^=\?UTF-8\?/); // non-ASCII subject encoded, as it must be
    expect(mail.text).toContain(longLink);
    expect(mail.text).toContain('100% yours');
    expect(smtp.refusedLogins).toBe(0);
  });

  it('fails the send when the server refuses the credentials', async () => {
    const wrong = smtp.url.replace('s3cret%20pass', 'wrong');
    const mailer = openMailer({ SMTP_URL: wrong, MAIL_FROM: FROM, DATA_DIR: '/nonexistent' }, { info: () => {} }, clock);
    await expect(mailer.send({ to: 'bob@example.com', subject: 'x', text: 'y' })).rejects.toThrow(/Invalid login|Invalid username|535/);
    await mailer.close();
    expect(smtp.refusedLogins).toBe(1);
    expect(smtp.received.some((m) => m.to.includes('bob@example.com'))).toBe(false);
  });
});

describe('the embedded default (no SMTP_URL)', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'outbox-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('appends each message to the outbox file and writes its text, not its recipient, to the log', async () => {
    const lines: Array<{ fields: Record<string, unknown>; message: string }> = [];
    const mailer = openMailer({ SMTP_URL: undefined, MAIL_FROM: FROM, DATA_DIR: path.join(dataDir, 'data') }, { info: (fields: Record<string, unknown>, message: string) => lines.push({ fields, message }) } as never, clock);
    await mailer.send({ to: 'ada@example.com', subject: 'First', text: `Here:\n${longLink}` });
    await mailer.send({ to: 'grace@example.com', subject: 'Second', text: 'Another' });
    const outbox = readFileSync(path.join(dataDir, 'data', OUTBOX_FILE), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
    expect(outbox).toEqual([
      { at: '2026-03-01T12:00:00.000Z', from: FROM, to: 'ada@example.com', subject: 'First', text: `Here:\n${longLink}` },
      { at: '2026-03-01T12:00:00.000Z', from: FROM, to: 'grace@example.com', subject: 'Second', text: 'Another' },
    ]);
    expect(lines).toHaveLength(2);
    expect(String(lines[0]!.fields.text)).toContain(longLink);
    expect(JSON.stringify(lines)).not.toContain('ada@example.com');
    expect(mailer.location).toBe(path.join(dataDir, 'data', OUTBOX_FILE));
  });
});
