import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

// A real SMTP server on loopback (the `smtp-server` package): it takes every message, keeps it as received, and
// answers waiters by recipient. With `auth`, it refuses senders without those credentials, as a provider does.

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw message as sent: headers, a blank line, the encoded body. */
  raw: string;
  headers: Map<string, string>;
  /** The body decoded (quoted-printable or base64 undone). */
  text: string;
}

export interface SmtpFake {
  /** `smtp://[user:pass@]127.0.0.1:<port>` */
  url: string;
  received: ReceivedMail[];
  /** Sign-ins refused (wrong credentials). */
  refusedLogins: number;
  /** The next message to `to` not taken yet; rejects after `timeoutMs`. */
  nextMailTo(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => `%${hex}`);
  // Encoded bytes become %XX for decodeURIComponent; a literal % in the text has to survive that too.
  return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
}

export function parseMail(raw: string): Pick<ReceivedMail, 'headers' | 'text'> {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const headers = new Map(head.split('\r\n').map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()] as [string, string]));
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  const text = encoding === 'quoted-printable' ? decodeQuotedPrintable(body) : encoding === 'base64' ? Buffer.from(body, 'base64').toString('utf8') : body;
  return { headers, text: text.replace(/\r\n/g, '\n') };
}

export async function startSmtpFake(options: { auth?: { user: string; pass: string } } = {}): Promise<SmtpFake> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters = new Set<() => void>();
  const fake = { refusedLogins: 0 };
  const server = new SMTPServer({
    secure: false,
    // Loopback only, no certificate: a plain-text session (nodemailer upgrades only when STARTTLS is offered).
    disabledCommands: options.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !options.auth,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) return callback(null, { user: auth.username });
      fake.refusedLogins += 1;
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const envelope = session.envelope;
        received.push({
          from: envelope.mailFrom ? envelope.mailFrom.address : '',
          to: envelope.rcptTo.map((r) => r.address),
          raw,
          ...parseMail(raw),
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const credentials = options.auth ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.pass)}@` : '';
  return {
    url: `smtp://${credentials}127.0.0.1:${port}`,
    received,
    get refusedLogins() {
      return fake.refusedLogins;
    },
    nextMailTo(to, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const look = () => {
          const mail = received.find((m) => !taken.has(m) && m.to.includes(to));
          if (!mail) return false;
          taken.add(mail);
          waiters.delete(look);
          clearTimeout(timer);
          resolve(mail);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(new Error(`no mail to ${to} within ${timeoutMs} ms (received: ${received.map((m) => m.to.join(',')).join('; ') || 'none'})`));
        }, timeoutMs);
        if (!look()) waiters.add(look);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The reset link in a mail's text. */
export function resetLinkIn(mail: Pick<ReceivedMail, 'text'>): string {
  const link = /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no reset link in the mail:\n${mail.text}`);
  return link;
}
