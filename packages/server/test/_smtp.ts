/**
 * A real SMTP server for the mail tests: the nodemailer project's `smtp-server`, on 127.0.0.1, with
 * STARTTLS under the test certificate (test/_tls.ts; the client trusts fixtures/tls/ca.pem), and
 * every message that arrives read back with `mailparser`. It can be stopped and started again on
 * the same port (an SMTP outage), and told to hold each message before accepting it (a send in flight).
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/tls/${name}`, import.meta.url), 'utf8');

/** The CA that signed the SMTP server's certificate, as a file: SMTP_CA_FILE. */
export const TEST_CA_FILE = fileURLToPath(new URL('./fixtures/tls/ca.pem', import.meta.url));

export interface ArrivedMail {
  readonly messageId: string;
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly headers: ParsedMail['headers'];
  /** Whether the message came over TLS (STARTTLS or implicit). */
  readonly secure: boolean;
  /** The user the client authenticated as, if it did. */
  readonly user: string | undefined;
}

export interface SmtpOptions {
  /** Offer and accept no STARTTLS (a server a `requireTLS` client must refuse). */
  readonly plaintextOnly?: boolean;
  /** Hold each message this long before answering its DATA (a send in flight). */
  readonly holdMs?: number;
  /** Answer every RCPT TO with this permanent failure (a recipient the server refuses). */
  readonly refuseRecipients?: boolean;
}

export class TestSmtpServer {
  readonly arrived: ArrivedMail[] = [];
  #server: SMTPServer | undefined;
  #port = 0;
  readonly #options: SmtpOptions;

  constructor(options: SmtpOptions = {}) {
    this.#options = options;
  }

  get port(): number {
    return this.#port;
  }

  /** `smtp://127.0.0.1:<port>` (credentials added by the caller when it wants them). */
  get url(): string {
    return `smtp://127.0.0.1:${this.#port}`;
  }

  /** Listens (again) on its port, a free one the first time. */
  async start(): Promise<void> {
    const server = new SMTPServer(this.#serverOptions());
    server.on('error', () => {});
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(this.#port, '127.0.0.1', () => resolve());
    });
    this.#port = (server.server.address() as AddressInfo).port;
    this.#server = server;
  }

  /** Stops listening and drops every connection (each client is told 421). */
  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Resolves once `count` messages arrived, or fails after `timeoutMs`. */
  async waitFor(count: number, timeoutMs = 30_000): Promise<ArrivedMail[]> {
    for (const deadline = Date.now() + timeoutMs; this.arrived.length < count; await sleep(20))
      if (Date.now() > deadline) throw new Error(`${this.arrived.length} of ${count} messages arrived`);
    return this.arrived;
  }

  #serverOptions(): SMTPServerOptions {
    return {
      key: fixture('server.key'),
      cert: fixture('server.pem'),
      secure: false,
      disabledCommands: this.#options.plaintextOnly === true ? ['STARTTLS'] : [],
      authOptional: true,
      // Credentials only under TLS: what nodemailer's requireTLS guarantees.
      allowInsecureAuth: false,
      closeTimeout: 50,
      logger: false,
      onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
      onRcptTo: (_address, _session, callback) =>
        this.#options.refuseRecipients
          ? callback(Object.assign(new Error('5.1.1 no such user'), { responseCode: 550 }))
          : callback(),
      onData: (stream, session, callback) => {
        void (async () => {
          try {
            const parsed = await simpleParser(stream);
            if (this.#options.holdMs !== undefined) await sleep(this.#options.holdMs);
            this.arrived.push({
              messageId: parsed.messageId ?? '',
              from: parsed.from?.text ?? '',
              to: [parsed.to ?? []].flat()[0]?.text ?? '',
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              headers: parsed.headers,
              secure: session.secure,
              user: typeof session.user === 'string' ? session.user : undefined,
            });
            callback();
          } catch (error) {
            callback(error as Error);
          }
        })();
      },
    };
  }
}
