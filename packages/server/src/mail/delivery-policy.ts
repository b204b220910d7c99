/**
 * How the outbox's workers deliver: how often they look for due messages, how long a claim holds,
 * and how failed attempts are retried. Every process of a deployment should run with the same.
 */
export interface DeliveryPolicy {
  /** MAIL_POLL_MS: how often a worker looks for due messages when nothing woke it. */
  readonly pollMs: number;
  /** MAIL_LEASE_MS: how long a claim holds; a node killed mid-send leaves its messages to others after it. */
  readonly leaseMs: number;
  /** MAIL_MAX_ATTEMPTS: attempts before a message fails for good. */
  readonly maxAttempts: number;
  /** MAIL_RETRY_MS: the wait before the first retry; each next one doubles, up to `maxRetryMs`. */
  readonly retryMs: number;
  readonly maxRetryMs: number;
  /** Messages claimed at once. */
  readonly batchSize: number;
  /**
   * How long one send may take at most (nodemailer's connection, greeting and socket timeouts): a
   * claimed message is sent only while its lease has this much left, so that no send outlives its lease.
   */
  readonly sendBudgetMs: number;
}

export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  pollMs: 5_000,
  leaseMs: 120_000,
  maxAttempts: 10,
  retryMs: 30_000,
  maxRetryMs: 3_600_000,
  batchSize: 10,
  sendBudgetMs: 45_000,
};

/**
 * The wait after the `attempt`-th failed attempt (1 for the first): exponential, capped, with
 * jitter (half the delay fixed, half random), so that messages that failed together, in an SMTP
 * outage, are not all retried in the same instant when it ends.
 */
export function retryDelayMs(attempt: number, policy: DeliveryPolicy, random: () => number = Math.random): number {
  const exponential = Math.min(policy.maxRetryMs, policy.retryMs * 2 ** Math.min(attempt - 1, 40));
  return Math.round(exponential / 2 + (exponential / 2) * random());
}
