import type { AuditEvent, AuditRecorder, AuditTrail } from '../audit/audit.js';
import { newRecordId } from '../primitives/ids.js';
import type { ClaimedMail, MailRepository } from '../store/mail-repository.js';
import { checkedMessage, type MailMessage } from './message.js';

/**
 * What seals a message's content at rest: the server's sealing of second-factor secrets
 * (factors/sealing.ts, AES-256-GCM under KEY_ENCRYPTION_KEY, else under the store's own key), passed
 * in by the root so that mail/ needs nothing of factors/. `context` is bound as associated data.
 */
export interface MailSealing {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

/** The transaction a message is queued in: the store's, and the audit recorder it was handed with. */
export interface MailTransaction {
  readonly tx: Pick<MailRepository, 'insertMail'>;
  readonly audit: AuditRecorder;
}

/** A queued message: its outbox id and the Message-ID it will be sent with. */
export interface QueuedMail {
  readonly id: string;
  readonly messageId: string;
}

/** What is sealed: the parts of a message that may carry a secret. */
export interface MailContent {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly links: readonly string[];
}

export type MailOutcome = 'queued' | 'sent' | 'failed';
export const MAIL_OUTCOMES: readonly MailOutcome[] = ['queued', 'sent', 'failed'];

const OUTCOME_OF_EVENT: Partial<Record<AuditEvent['event'], MailOutcome>> = {
  mail_queued: 'queued',
  mail_sent: 'sent',
  mail_failed: 'failed',
};

export interface OutboxOptions {
  readonly sealing: MailSealing;
  /** The process's audit trail: every queued message is an event of it. */
  readonly audit: AuditTrail;
  /** The domain of Message-IDs: the issuer's host. */
  readonly host: string;
  /** The audit events' clock, epoch seconds. */
  readonly now: () => number;
  /** The outbox's clock, epoch milliseconds. */
  readonly nowMs?: () => number;
}

/**
 * The durable outbox: a feature queues a rendered message inside the transaction of the change that
 * causes it (`queueMail`), so the change and its mail commit together or not at all, and a worker of
 * any process sends it later (./worker.ts). The content is sealed at rest; the message is checked
 * first (./message.ts), so a bad address or a header injection is refused before anything is stored.
 * Every message queued, sent or failed is an audit event (its kind, the recipient's domain and the
 * user's subject, never the content), counted here for the metrics once committed.
 */
export class Outbox {
  readonly #options: OutboxOptions;
  readonly #counts = new Map<MailOutcome, number>(MAIL_OUTCOMES.map((outcome) => [outcome, 0]));
  readonly #queuedListeners = new Set<() => void>();

  constructor(options: OutboxOptions) {
    this.#options = options;
    options.audit.watch((event) => {
      const outcome = OUTCOME_OF_EVENT[event.event];
      if (outcome === undefined) return;
      this.#counts.set(outcome, (this.#counts.get(outcome) ?? 0) + 1);
      // Committed: a worker of this process may claim it now.
      if (outcome === 'queued') for (const listener of this.#queuedListeners) listener();
    });
  }

  /**
   * Queues `message` in `transaction`: checked (`invalid_email_address`, `invalid_email_message`
   * refuse it, and the transaction with them unless the caller catches), sealed, stored, audited.
   * A worker of this process wakes once the transaction commits; the others find it at their next poll.
   */
  async queueMail(transaction: MailTransaction, message: MailMessage): Promise<QueuedMail> {
    const checked = checkedMessage(message);
    const id = newRecordId();
    const createdMs = this.#nowMs();
    const messageId = `<${id}@${this.#options.host}>`;
    const content: MailContent = {
      subject: checked.subject,
      text: checked.text,
      html: checked.html,
      links: checked.links ?? [],
    };
    await transaction.tx.insertMail({
      id,
      kind: checked.kind,
      recipient: checked.to,
      subject: checked.userSubject ?? null,
      locale: checked.locale,
      messageId,
      content: this.#options.sealing.seal(JSON.stringify(content), sealingContext(id)),
      createdMs,
      nextAttemptMs: createdMs,
    });
    await transaction.audit({
      event: 'mail_queued',
      at: this.#options.now(),
      subject: checked.userSubject ?? null,
      reason: mailReason({ id, kind: checked.kind, recipient: checked.to }),
    });
    return { id, messageId };
  }

  /** The content of a claimed message; throws when it was sealed under a key this server lacks, or altered. */
  open(mail: Pick<ClaimedMail, 'id' | 'content'>): MailContent {
    if (mail.content === null) throw new Error(`message ${mail.id} has no content left`);
    return JSON.parse(this.#options.sealing.open(mail.content, sealingContext(mail.id))) as MailContent;
  }

  /** Calls `listener` each time a message queued by this process has committed; returns what stops it. */
  onQueued(listener: () => void): () => void {
    this.#queuedListeners.add(listener);
    return () => this.#queuedListeners.delete(listener);
  }

  /** Messages queued, sent and failed by this process; the metrics read them at each scrape. */
  counts(): ReadonlyMap<MailOutcome, number> {
    return this.#counts;
  }

  #nowMs(): number {
    return (this.#options.nowMs ?? Date.now)();
  }
}

/** Bound to the row: content sealed for one message does not open as another's. */
const sealingContext = (id: string): string => `mail_outbox:${id}`;

/** An audit event's reason: the kind, the recipient's domain (never the whole address) and the outbox id. */
export function mailReason(mail: { id: string; kind: string; recipient: string }, more = ''): string {
  const domain = mail.recipient.slice(mail.recipient.lastIndexOf('@') + 1);
  return `${mail.kind} to @${domain}, message ${mail.id}${more}`;
}
