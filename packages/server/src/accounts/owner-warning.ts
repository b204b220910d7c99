import { usernameKey, type RateLimiter } from '../abuse/rate-limiter.js';
import type { AuditTrail } from '../audit/audit.js';
import type { MailMessage, Outbox } from '../mail/index.js';

/** What warning an address's owner needs: the outbox, the audit trail (for the outbox's events), the limits. */
export interface OwnerWarningServices {
  readonly audit: AuditTrail;
  readonly mail: Outbox;
  readonly rateLimits: RateLimiter;
}

/**
 * Queues a mail telling an address's owner that someone else typed the address (a sign-up with it,
 * another account's change to it), at most OWNER_WARNING_EMAIL (one an hour) per address: the
 * person typing it gets the same answer however often they repeat, and the owner's mailbox gets
 * one warning, not one per attempt. True when queued, false when the limit held it back.
 */
export async function warnOwner(services: OwnerWarningServices, message: MailMessage): Promise<boolean> {
  const wait = await services.rateLimits.consume([['owner_warning_email', usernameKey(message.to)]]);
  if (wait > 0) return false;
  await services.audit.transaction(async (tx, record) => {
    await services.mail.queueMail({ tx, audit: record }, message);
  });
  return true;
}
