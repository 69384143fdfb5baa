import nodemailer from 'nodemailer';
import type { Mailer } from './mailer.ts';

/**
 * Mail through an SMTP server (SMTP_URL: `smtp://user:pass@host:587` upgrades with STARTTLS when offered, `smtps://`
 * is TLS from the start). nodemailer keeps no connection open between messages unless the URL asks for a pool.
 */
export function smtpMailer(options: { url: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(options.url);
  const url = new URL(options.url);
  return {
    // The start-up line names the server, never its credentials.
    location: `${url.protocol}//${url.host}`,
    async send(message) {
      await transport.sendMail({ from: options.from, to: message.to, subject: message.subject, text: message.text, ...(message.html ? { html: message.html } : {}) });
    },
    async close() {
      transport.close();
    },
  };
}
