/**
 * Whose records a caller reaches (OWASP API1:2023, broken object-level authorization): the rule of
 * a collection, as its OpenAPI document declares it, applied to the caller a token names. HTTP-free:
 * the routes ask `recordAccess` and hand what it answers to the record operations (records.ts).
 *
 * A collection's path item `/{name}` may declare two vendor extensions (docs/rest-api.md, "Whose records"):
 * - `x-gatehouse-ownership`: `owner` (the default) — a record belongs to the user whose token created
 *   it, and every read, list and change is limited to that user's own; `shared` — every caller with
 *   the scope reaches every record, as before records had owners;
 * - `x-gatehouse-client-access`: what a token with no user (a client's own, RFC 6749 §4.4) may do:
 *   `none` (the default under `owner`), `read` (read and list every record), `read-write` (the
 *   default under `shared`: every operation on every record; what it creates has no owner).
 */
import { OpenApiDocumentError, ProblemError, type AccessTokenClaims, type OpenApiDocument } from '@gatehouse/contract';

export const OWNERSHIP_EXTENSION = 'x-gatehouse-ownership';
export const CLIENT_ACCESS_EXTENSION = 'x-gatehouse-client-access';

export const OWNERSHIPS = ['owner', 'shared'] as const;
export type Ownership = (typeof OWNERSHIPS)[number];
export const CLIENT_ACCESSES = ['none', 'read', 'read-write'] as const;
export type ClientAccess = (typeof CLIENT_ACCESSES)[number];

/** A collection's rule, as declared (or defaulted). */
export interface CollectionPolicy {
  readonly ownership: Ownership;
  readonly clientAccess: ClientAccess;
}

/** The rule of collection `name`, read from its path item; an unknown value stops the start, naming where. */
export function collectionPolicy(document: OpenApiDocument, name: string): CollectionPolicy {
  const item = document.paths[`/${name}`] ?? {};
  const ownership = declared(item, name, OWNERSHIP_EXTENSION, OWNERSHIPS) ?? 'owner';
  const clientAccess =
    declared(item, name, CLIENT_ACCESS_EXTENSION, CLIENT_ACCESSES) ?? (ownership === 'owner' ? 'none' : 'read-write');
  return { ownership, clientAccess };
}

function declared<T extends string>(
  item: Readonly<Record<string, unknown>>,
  name: string,
  extension: string,
  values: readonly T[],
): T | undefined {
  if (!Object.hasOwn(item, extension)) return undefined;
  const value = item[extension];
  if (typeof value === 'string' && (values as readonly string[]).includes(value)) return value as T;
  throw new OpenApiDocumentError(['paths', `/${name}`, extension], `must be one of ${values.join(', ')}`);
}

/**
 * Who a request acts for. A token from a grant acts for the user who made the grant, named by its
 * `sub` (RFC 9068 §2.2.2), whatever form the subject has; a client_credentials token belongs to no
 * grant (no `grant_id`) and acts for the client alone (RFC 6749 §4.4).
 */
export type Caller = { readonly user: string } | { readonly client: string };

export function callerOf(claims: AccessTokenClaims): Caller {
  return claims.grant_id === undefined ? { client: claims.client_id } : { user: claims.sub };
}

/** What the caller reaches: one owner's records, or every record of the collection. */
export interface RecordAccess {
  readonly reaches: { readonly owner: string } | 'every_record';
  /** The owner of what the caller creates: the user, or null for a client (no user owns it). */
  readonly createsAs: string | null;
}

export type RecordOperation = 'read' | 'write';

/**
 * The rule as a table: a user reaches their own records under `owner`, every record under `shared`;
 * a client what `x-gatehouse-client-access` gives it, every record or nothing. A refusal is the
 * catalog's `owner_required` (403); another owner's record is never refused, it is not there (404,
 * as an id that does not exist: records.ts), so that ids do not leak.
 */
export function recordAccess(policy: CollectionPolicy, caller: Caller, operation: RecordOperation): RecordAccess {
  if ('user' in caller)
    return {
      reaches: policy.ownership === 'owner' ? { owner: caller.user } : 'every_record',
      createsAs: caller.user,
    };
  if (!clientMay(policy, operation)) throw ownerRequired(policy, operation);
  return { reaches: 'every_record', createsAs: null };
}

/** Whether a token with no user may make this operation on the collection. */
export function clientMay(policy: CollectionPolicy, operation: RecordOperation): boolean {
  return policy.clientAccess === 'read-write' || (policy.clientAccess === 'read' && operation === 'read');
}

function ownerRequired(policy: CollectionPolicy, operation: RecordOperation): ProblemError {
  const may = policy.clientAccess === 'none' ? 'do nothing' : 'only read';
  return new ProblemError(
    'owner_required',
    `This collection's records belong to users; a token issued to a client alone may ${may} here, ` +
      `and this ${operation === 'read' ? 'read' : 'change'} needs a user's token.`,
  );
}

/** Whether `owner`'s record is one the access reaches. */
export function reachesRecord(access: RecordAccess, owner: string | null): boolean {
  return access.reaches === 'every_record' || access.reaches.owner === owner;
}

/** A line for the served document saying the collection's rule in words. */
export function policyDescription(policy: CollectionPolicy): string {
  const users =
    policy.ownership === 'owner'
      ? `Records are owned (${OWNERSHIP_EXTENSION}: owner): a record belongs to the user whose access ` +
        `token created it (its sub), and every read, list, replace, patch and delete reaches only the ` +
        `caller's own; another user's record answers 404, as a missing id.`
      : `Records are shared (${OWNERSHIP_EXTENSION}: shared): every caller with the scope reaches every record.`;
  const clients = {
    none: 'reach nothing here (403 owner-required)',
    read: 'read and list every record, and change none (403 owner-required)',
    'read-write': 'reach every record; what they create has no owner',
  }[policy.clientAccess];
  const access = `${CLIENT_ACCESS_EXTENSION}: ${policy.clientAccess}`;
  return `${users} Tokens of the client_credentials grant (${access}) ${clients}.`;
}
