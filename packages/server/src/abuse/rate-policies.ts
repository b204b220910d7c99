import type { RatePolicy } from '../store/rate-limits.js';

const UNITS = { s: 1000, min: 60_000, h: 3_600_000 } as const;

/** `limit` requests per second, minute or hour. */
export function per(limit: number, unit: keyof typeof UNITS): RatePolicy {
  return { limit, periodMs: UNITS[unit] };
}

/** `<count>/<s|min|h>` (e.g. `1200/min`), or `off`. */
export function parseRatePolicy(text: string): RatePolicy | null {
  const value = text.trim();
  if (value === 'off') return null;
  const match = /^([1-9]\d{0,8})\/(s|min|h)$/.exec(value);
  if (!match) throw new Error(`a rate limit is <count>/<s|min|h> (e.g. 1200/min) or off, got ${JSON.stringify(text)}`);
  return per(Number(match[1]), match[2] as keyof typeof UNITS);
}
