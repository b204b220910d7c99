import { OAuthError } from '@gatehouse/contract';

// RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ), space-delimited.
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** Parses a `scope` parameter; undefined when absent. */
export function parseScope(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const tokens = value.split(' ').filter((t) => t !== '');
  if (tokens.length === 0 || !tokens.every((t) => SCOPE_TOKEN.test(t))) throw new OAuthError('scope_malformed');
  return [...new Set(tokens)];
}

export function isScopeSubset(requested: readonly string[], allowed: readonly string[]): boolean {
  return requested.every((s) => allowed.includes(s));
}
