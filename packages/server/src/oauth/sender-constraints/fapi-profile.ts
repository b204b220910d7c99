import { OperatorInputError } from '../../primitives/operator-input-error.js';
import type { ClientRecord } from '../../primitives/records.js';
import { CLIENT_SIGNING_ALGS } from '../keys/index.js';

/**
 * The FAPI 2.0 Security Profile (final), per client (`profile: fapi2`). What it asks of the
 * authorization server (§5.3) is enforced where each rule belongs; this module holds the values:
 * - pushed authorization requests only (§5.3.2.2): authorize/flow.ts;
 * - PKCE with S256 (§5.3.2.2): every authorization request already;
 * - confidential clients authenticating with private_key_jwt only (§5.3.2.1, §5.4.1): the
 *   compliance check here, of every registration (CLI, admin API, and RFC 7591 in
 *   oauth/clients/client-metadata.ts), and oauth/clients/client-authentication.ts for a record that escaped it;
 * - sender-constrained tokens by DPoP (§5.3.2.1, RFC 9449 §5.2): oauth/endpoints/token.ts;
 * - authorization codes that live at most 60 s (§5.3.2.2): oauth/tokens/authorization-codes.ts;
 * - `iss` in every authorization response (§5.3.2.2, RFC 9207): authorize/flow.ts, consent.ts;
 * - JWTs (client assertions, request objects) signed with PS256, ES256 or EdDSA only (§5.4.1);
 * - JWTs with `iat` or `nbf` up to 10 s in the future accepted, more than 60 s refused (§5.3.2.1).
 * Refresh-token rotation stays the client's choice: FAPI 2.0 (§5.3.2.1) recommends against
 * rotating the refresh tokens of confidential sender-constrained clients.
 *
 * @see https://openid.net/specs/fapi-security-profile-2_0-final.html#section-5.3 FAPI 2.0 §5.3
 */
export const CLIENT_PROFILES = ['fapi2', 'none'] as const;

export type ClientProfileName = (typeof CLIENT_PROFILES)[number];

/** FAPI 2.0 §5.4.1: the signing algorithms a fapi2 client's JWTs may use. */
export const FAPI2_SIGNING_ALGS = ['PS256', 'ES256', 'EdDSA'] as const;

/** FAPI 2.0 §5.3.2.1: `iat`/`nbf` up to 10 s ahead are accepted... */
export const FAPI2_CLOCK_TOLERANCE = 10;
/** ...and more than 60 s ahead refused. */
export const FAPI2_MAX_FUTURE_IAT = 60;

/** FAPI 2.0 §5.3.2.2: an authorization code lives at most 60 s. */
export const FAPI2_MAX_CODE_LIFETIME = 60;

export function isFapi2(client: Pick<ClientRecord, 'profile'>): boolean {
  return client.profile === 'fapi2';
}

/** The algorithms `client`'s assertions and request objects may be signed with. */
export function clientSigningAlgs(client: Pick<ClientRecord, 'profile'>): readonly string[] {
  return isFapi2(client) ? FAPI2_SIGNING_ALGS : CLIENT_SIGNING_ALGS;
}

/**
 * How far `client`'s JWTs may be ahead of this server's clock (seconds), and what `iat` it refuses
 * as too far ahead (undefined: not checked). `defaultTolerance` is the leeway outside the profile.
 */
export function clockSkewOf(
  client: Pick<ClientRecord, 'profile'>,
  defaultTolerance: number,
): { readonly tolerance: number; readonly maxFutureIat: number | undefined } {
  return isFapi2(client)
    ? { tolerance: FAPI2_CLOCK_TOLERANCE, maxFutureIat: FAPI2_MAX_FUTURE_IAT }
    : { tolerance: defaultTolerance, maxFutureIat: undefined };
}

/** A profile as an operator names it: `fapi2`, or `none` (or nothing) for none. */
export function profileOf(name: string | null | undefined): 'fapi2' | undefined {
  if (name === undefined || name === null || name === 'none') return undefined;
  if (name === 'fapi2') return 'fapi2';
  throw new OperatorInputError(`unknown client profile '${name}'; use ${CLIENT_PROFILES.join(' or ')}`);
}

/** Why a client could not comply with the fapi2 profile. */
export type Fapi2Problem = 'public' | 'no_keys' | 'client_secret';

/**
 * The compliance check of every way a client gets the profile (CLI, admin API, dynamic
 * registration): a public client, one without keys, or one that authenticates with a secret could
 * not comply (FAPI 2.0 §5.3.2.1: confidential clients only; §5.4.1: private_key_jwt, no client
 * secrets). Undefined when it can.
 */
export function fapi2Problem(
  client: Pick<ClientRecord, 'authMethod' | 'jwks' | 'jwksUri'>,
  isPublic: boolean,
): Fapi2Problem | undefined {
  if (isPublic) return 'public';
  if ((client.jwks ?? null) === null && (client.jwksUri ?? null) === null) return 'no_keys';
  if (client.authMethod !== 'private_key_jwt') return 'client_secret';
  return undefined;
}

/** The operator's words for each problem (the CLI and the admin API's invalid-operator-input). */
const OPERATOR_REASONS: Readonly<Record<Fapi2Problem, string>> = {
  public: 'it is public (FAPI 2.0 admits confidential clients only)',
  no_keys: 'it has no keys (register --jwks or --jwks-uri: FAPI 2.0 clients authenticate with private_key_jwt)',
  client_secret: 'it authenticates with a client secret (FAPI 2.0 clients authenticate with private_key_jwt only)',
};

/** Refuses, as an operator error, a fapi2 client that could not comply ({@link fapi2Problem}). */
export function checkFapi2Client(
  client: Pick<ClientRecord, 'profile' | 'authMethod' | 'jwks' | 'jwksUri' | 'id'>,
  isPublic: boolean,
): void {
  if (!isFapi2(client)) return;
  const problem = fapi2Problem(client, isPublic);
  if (problem !== undefined)
    throw new OperatorInputError(`client '${client.id}' cannot have profile fapi2: ${OPERATOR_REASONS[problem]}`);
}
