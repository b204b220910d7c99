/**
 * The vocabulary of `grant_type` values (RFC 6749 §4, RFC 8628 §3.4) a client may be registered for,
 * low enough that the records (`ClientRecord.grantTypes`), client registration and the grant registry
 * all share it without importing one another. The registry (oauth/grants/index.ts) implements exactly
 * these names, in this order: a type assertion there and test/grant-types.test.ts check it, so a new
 * grant is a name here and a file plus a line in the registry.
 */
export const GRANT_TYPE_NAMES = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
  'urn:ietf:params:oauth:grant-type:device_code',
  'urn:ietf:params:oauth:grant-type:token-exchange',
] as const;

export type GrantTypeName = (typeof GRANT_TYPE_NAMES)[number];

const NAMES: ReadonlySet<string> = new Set(GRANT_TYPE_NAMES);

export function isGrantTypeName(value: string): value is GrantTypeName {
  return NAMES.has(value);
}
