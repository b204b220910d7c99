/**
 * Slows down password guessing: per username and per client address, after `maxFailures` failed
 * sign-ins within `window` seconds, each further attempt is refused until a delay has passed since
 * the last failure; the delay doubles with each failure, up to `maxDelay`. A success clears the
 * username's count (not the address's). NIST SP 800-63B §5.2.2 and OWASP ASVS V2.2.1.
 *
 * The counts live in this process's memory: several processes behind a load balancer each keep
 * their own, so an attacker spreading attempts over N processes gets N times the attempts.
 */
export interface ThrottlePolicy {
  readonly maxFailures: number;
  readonly window: number;
  readonly baseDelay: number;
  readonly maxDelay: number;
  /** How many keys are remembered at most; the oldest are forgotten first. */
  readonly maxKeys: number;
}

export const LOGIN_THROTTLE: ThrottlePolicy = { maxFailures: 5, window: 15 * 60, baseDelay: 30, maxDelay: 15 * 60, maxKeys: 100_000 };

export class LoginThrottle {
  readonly #policy: ThrottlePolicy;
  /** Failure times (epoch seconds) per key, oldest first, within the window. */
  readonly #failures = new Map<string, number[]>();

  constructor(policy: ThrottlePolicy = LOGIN_THROTTLE) {
    this.#policy = policy;
  }

  /** Seconds to wait before any of `keys` may try again; 0 when the attempt may go ahead. */
  retryAfter(keys: readonly string[], now: number): number {
    return Math.max(0, ...keys.map((key) => this.#lockedUntil(key, now) - now));
  }

  recordFailure(keys: readonly string[], now: number): void {
    for (const key of keys) {
      const recent = this.#recent(key, now);
      this.#failures.delete(key);
      this.#failures.set(key, [...recent, now]);
    }
    while (this.#failures.size > this.#policy.maxKeys) this.#failures.delete(this.#failures.keys().next().value as string);
  }

  recordSuccess(key: string): void {
    this.#failures.delete(key);
  }

  #recent(key: string, now: number): number[] {
    return (this.#failures.get(key) ?? []).filter((t) => t > now - this.#policy.window);
  }

  #lockedUntil(key: string, now: number): number {
    const recent = this.#recent(key, now);
    if (recent.length < this.#policy.maxFailures) return 0;
    const { baseDelay, maxDelay, maxFailures } = this.#policy;
    const delay = Math.min(maxDelay, baseDelay * 2 ** (recent.length - maxFailures));
    return (recent.at(-1) as number) + delay;
  }
}

/** Usernames are at most 64 characters: a longer one cannot exist, and must not cost memory here. */
export function usernameKey(username: string): string {
  return `user:${username.slice(0, 64)}`;
}

export function addressKey(address: string): string {
  return `address:${address}`;
}
