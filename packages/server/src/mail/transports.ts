import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type nodemailerModule from 'nodemailer';
import type { SendMailOptions, Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type StreamTransport from 'nodemailer/lib/stream-transport';
import type { TransportSettings } from './settings.js';

/** One message as a transport sends it: the outbox row's metadata and its opened content. */
export interface OutgoingMail {
  readonly id: string;
  readonly kind: string;
  readonly from: string;
  readonly to: string;
  /** `<id@host>`, the same at every attempt: a receiver that got it twice can tell. */
  readonly messageId: string;
  readonly createdMs: number;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly links: readonly string[];
}

/** Where a worker's mail goes: an SMTP server, or files beside the database. */
export interface MailTransport {
  /** Said once at start: `SMTP smtp.example.com:587 (STARTTLS required)`. */
  readonly description: string;
  /** Resolves once the message was handed over (the SMTP server accepted it, the file is written). */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** What a transport says while it runs: the file transport's line per message. */
export interface MailLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** nodemailer's timeouts, ms: one send takes at most about their sum (DeliveryPolicy.sendBudgetMs). */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000, dnsTimeout: 5_000 };

export function transportFor(settings: TransportSettings, log: MailLog): MailTransport {
  return settings.kind === 'smtp' ? smtpTransport(settings) : fileTransport(settings.dir, log);
}

/**
 * A nodemailer transporter made at the first message, with nodemailer itself: its modules are some
 * 2.8 MB of the heap (2026-11-30) that a server sending no mail never holds. `close` closes it if it
 * was made.
 */
function madeAtFirstUse<T extends { close(): void }>(
  make: (nodemailer: typeof nodemailerModule) => T,
): { get(): Promise<T>; close(): void } {
  let made: Promise<T> | undefined;
  return {
    get: () => (made ??= import('nodemailer').then((module) => make(module.default))),
    close: () => void made?.then((transporter) => transporter.close()).catch(() => undefined),
  };
}

/**
 * nodemailer over SMTP, one pooled connection. `smtp://` upgrades with STARTTLS and, unless the URL
 * says `starttls=optional` or `never`, refuses a server that does not offer it (nodemailer's
 * `requireTLS`): credentials and single-use links never cross the network in plaintext. `smtps://`
 * is TLS from the first byte (RFC 8314 §3.3).
 */
function smtpTransport(settings: Extract<TransportSettings, { kind: 'smtp' }>): MailTransport {
  const transporter = madeAtFirstUse((nodemailer): Transporter<SMTPTransport.SentMessageInfo> =>
    nodemailer.createTransport({
      pool: true,
      maxConnections: 1,
      host: settings.host,
      port: settings.port,
      secure: settings.secure,
      requireTLS: settings.starttls === 'required',
      ignoreTLS: settings.starttls === 'never',
      auth: settings.user === undefined ? undefined : { user: settings.user, pass: settings.pass ?? '' },
      tls: { minVersion: 'TLSv1.2', ...(settings.ca === undefined ? {} : { ca: settings.ca }) },
      ...SMTP_TIMEOUTS,
    }),
  );
  return {
    description: settings.description,
    async send(mail) {
      await (await transporter.get()).sendMail(composed(mail));
    },
    close: () => transporter.close(),
  };
}

/**
 * The embedded default: each message composed by nodemailer (its MIME, as SMTP would send it) and
 * written to `<dir>/<queued time>-<id>.eml` (0600, in a 0700 folder: the links in it are secrets),
 * through a temporary file renamed into place, so a reader never sees half a message and a retry
 * rewrites the same file. Its links are logged, for trying the server out without a mail server.
 */
function fileTransport(dir: string, log: MailLog): MailTransport {
  const composer = madeAtFirstUse((nodemailer): Transporter<StreamTransport.SentMessageInfo> =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' }),
  );
  return {
    description: `files in ${dir} (no SMTP_URL)`,
    async send(mail) {
      const { message } = (await (await composer.get()).sendMail(composed(mail))) as { message: Buffer };
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const file = join(dir, `${fileTime(mail.createdMs)}-${mail.id}.eml`);
      await writeFile(`${file}.tmp`, message, { mode: 0o600 });
      await rename(`${file}.tmp`, file);
      const links = mail.links.length === 0 ? '' : `; its links: ${mail.links.join(' ')}`;
      log.info({ mail: mail.id, file }, `mail (${mail.kind}) to ${mail.to} written to ${file}${links}`);
    },
    close: () => composer.close(),
  };
}

/**
 * The message for nodemailer: strings only, and nodemailer told never to read a file or a URL it is
 * handed (an attachment or body given as a path), whatever a message holds.
 */
function composed(mail: OutgoingMail): SendMailOptions {
  return {
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: mail.messageId,
    date: new Date(mail.createdMs),
    // RFC 3834 §5: sent by a machine; auto-responders do not answer it.
    headers: { 'Auto-Submitted': 'auto-generated' },
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** `20261107T140207114Z`: sortable, and without the colons some file systems refuse. */
function fileTime(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:.]/g, '');
}
