import { createHash } from 'node:crypto';
import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';
import { forgetPast, type RateCharge, type RateLimitStore, type RatePolicy } from '../store/rate-limits.js';

/** A policy per declared limit (src/rate-limits.ts); null when that limit is off. */
type RatePolicies = Readonly<Record<string, RatePolicy | null>>;

/** One limit to charge, and whose bucket: a client id, an address (see `addressKey`), a username. */
export type Charge = readonly [name: string, key: string];

interface NamedCharge extends RateCharge {
  readonly name: string;
}

/** How often buckets that are back to full are forgotten. */
const SWEEP_INTERVAL_MS = 60_000;

/** At most this many refusals are remembered locally; past it, the ones already over are dropped. */
const MAX_REMEMBERED_REFUSALS = 10_000;

/**
 * The rate limits of one process, over a store of buckets that may be shared with other processes.
 * Every refusal is remembered here until it ends, so a client that keeps sending while refused is
 * answered without a round trip to the store.
 */
export class RateLimiter {
  readonly #store: RateLimitStore;
  readonly #policies: RatePolicies;
  readonly #now: () => number;
  /** Bucket → the time (ms) its refusal ends. */
  readonly #refusedUntil = new Map<string, number>();
  /** Refusals answered, by limit, for the metrics. */
  readonly #refusals = new Map<string, number>();
  #sweeper: NodeJS.Timeout | undefined;

  constructor(store: RateLimitStore, policies: RatePolicies, now: () => number = Date.now) {
    this.#store = store;
    this.#policies = policies;
    this.#now = now;
  }

  /** Whole seconds to wait when a bucket of `charges` is known to be refused now; 0 otherwise. Charges nothing. */
  knownRefusal(charges: readonly Charge[]): number {
    // Nothing refused: no bucket name to build (a token request asks here, then again in consume).
    if (this.#refusedUntil.size === 0) return 0;
    const now = this.#now();
    let wait = 0;
    let refusedBy: string | undefined;
    for (const [name, key] of charges) {
      const until = this.#refusedUntil.get(bucketOf(name, key));
      if (until !== undefined && until - now > wait) [wait, refusedBy] = [until - now, name];
    }
    if (refusedBy !== undefined) this.#countRefusal(refusedBy);
    return toSeconds(wait);
  }

  /** Every declared limit, on or off: the metrics have a series for each. */
  limitNames(): readonly string[] {
    return Object.keys(this.#policies);
  }

  /** How many requests each limit refused since the process started. */
  refusals(): ReadonlyMap<string, number> {
    return this.#refusals;
  }

  /** Counts one request in every bucket of `charges`; whole seconds to wait when any refused it, else 0. */
  consume(charges: readonly Charge[]): Promise<number> {
    // #ask's own promise, not one around it: a promise resolved with a promise costs two more microtasks.
    return this.#ask(charges, 'consume');
  }

  /** What `consume` would answer, without counting anything. */
  peek(charges: readonly Charge[]): Promise<number> {
    return this.#ask(charges, 'peek');
  }

  /** Starts forgetting full buckets every minute (the store's and the remembered refusals). */
  start(): void {
    this.#sweeper ??= setInterval(() => {
      const now = this.#now();
      forgetPast(this.#refusedUntil, now);
      this.#store.sweep(now).catch(() => {});
    }, SWEEP_INTERVAL_MS).unref();
  }

  stop(): void {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }

  #countRefusal(name: string): void {
    this.#refusals.set(name, (this.#refusals.get(name) ?? 0) + 1);
  }

  /** `consume` answered synchronously, where the buckets are in memory (SQLite); undefined where it must be awaited. */
  consumeAtOnce(charges: readonly Charge[]): number | undefined {
    if (this.#store.consumeAtOnce === undefined) return undefined;
    const now = this.#now();
    const known = this.knownRefusal(charges);
    if (known > 0) return known;
    const resolved = this.#resolve(charges);
    if (resolved.length === 0) return 0;
    return this.#settle(resolved, this.#store.consumeAtOnce(resolved, now), now);
  }

  #resolve(charges: readonly Charge[]): NamedCharge[] {
    const resolved: NamedCharge[] = [];
    for (const [name, key] of charges) {
      const policy = this.#policies[name];
      // Every limit an endpoint charges is declared (policies.ts); a name without one is a bug, not a free pass.
      if (policy === undefined) throw new Error(`rate limit '${name}' is not declared`);
      if (policy !== null) resolved.push({ name, bucket: bucketOf(name, key), policy });
    }
    return resolved;
  }

  async #ask(charges: readonly Charge[], ask: 'consume' | 'peek'): Promise<number> {
    const now = this.#now();
    const known = this.knownRefusal(charges);
    if (known > 0) return known;
    const resolved = this.#resolve(charges);
    if (resolved.length === 0) return 0;
    const waits = await (ask === 'consume' ? this.#store.consume(resolved, now) : this.#store.peek(resolved, now));
    return this.#settle(resolved, waits, now);
  }

  /** Remembers and counts the refusals among the store's `waits`; whole seconds to wait, 0 when none refused. */
  #settle(resolved: readonly NamedCharge[], waits: readonly number[], now: number): number {
    let wait = 0;
    let refusedBy: string | undefined;
    waits.forEach((ms, i) => {
      if (ms <= 0) return;
      this.#refusedUntil.set((resolved[i] as NamedCharge).bucket, now + ms);
      if (ms > wait) [wait, refusedBy] = [ms, resolved[i]?.name];
    });
    if (refusedBy !== undefined) this.#countRefusal(refusedBy);
    // Past the cap, the oldest are forgotten too (the store still refuses them, at the cost of a round
    // trip), down to 90% so that a flood of new addresses does not sweep on every request.
    if (this.#refusedUntil.size > MAX_REMEMBERED_REFUSALS)
      forgetPast(this.#refusedUntil, now, MAX_REMEMBERED_REFUSALS * 0.9);
    return toSeconds(wait);
  }
}

function bucketOf(name: string, key: string): string {
  return `${name}:${key}`;
}

/** Retry-After is whole seconds (RFC 9110 §10.2.3); a refusal always asks for at least one. */
function toSeconds(ms: number): number {
  return ms <= 0 ? 0 : Math.max(1, Math.ceil(ms / 1000));
}

/**
 * The bucket key of a client address. An IPv6 client is limited by its /64, the smallest network a
 * host is given (RFC 6177): otherwise one host could change address for every request. An
 * IPv4-mapped IPv6 address is its IPv4 address.
 */
export function addressKey(address: string): string {
  // The usual case, a socket's own IPv4 address: node:net accepts only the dotted-decimal form
  // without leading zeros, which is ipaddr's own rendering of it, so the key is the address as it is.
  if (isIPv4(address)) return address;
  if (!ipaddr.isValid(address)) return address;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}

/**
 * The bucket key of a username typed into the sign-in form: a digest, since what was typed may be
 * a password typed into the wrong field, and buckets are stored (on PostgreSQL) and never secret.
 */
export function usernameKey(username: string): string {
  return createHash('sha256').update(username.normalize('NFC').toLowerCase()).digest('base64url').slice(0, 22);
}
