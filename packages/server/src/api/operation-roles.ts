/**
 * The roles each REST operation needs, as the OpenAPI document declares them on the operation
 * (`x-required-roles`, json-api/required-roles.ts: any one of the names suffices), and the check of
 * a caller against them: the same check the admin API makes. HTTP-free.
 *
 * The names are roles of the REST API (`gatehouse roles add NAME --api /v2`) or server-wide ones;
 * the caller holds them when its user does now, directly or through a group, as the admin API reads
 * them (so a role taken back is refused at once, whatever token was issued). A token with no user
 * (client_credentials, RFC 6749 §4.4) holds none.
 */
import type { AccessTokenClaims, CollectionDeclaration, HttpMethod, OpenApiDocument } from '@gatehouse/contract';
import { REST_API_AUDIENCE } from '../access/index.js';
import { declaredRoles, requireOneRole } from '../json-api/required-roles.js';
import type { Repository } from '../store/repository.js';

/** The roles the operations of one collection declare, by where and which method; absent: none. */
export interface OperationRoles {
  readonly collection: Readonly<Partial<Record<HttpMethod, readonly string[]>>>;
  readonly item: Readonly<Partial<Record<HttpMethod, readonly string[]>>>;
}

/** What the collection's operations declare; a malformed declaration stops the start, naming where. */
export function operationRoles(document: OpenApiDocument, declaration: CollectionDeclaration): OperationRoles {
  const of = (path: string, methods: readonly HttpMethod[]) =>
    Object.fromEntries(
      methods.flatMap((method) => {
        const roles = declaredRoles(document.paths[path]?.[method], ['paths', path, method]);
        return roles === undefined ? [] : [[method, roles]];
      }),
    );
  return {
    collection: of(`/${declaration.name}`, declaration.collectionMethods),
    item: of(declaration.itemPath, declaration.itemMethods),
  };
}

/** Refuses with `insufficient_role` (403) unless the caller's user holds one of `allowed` now. */
export async function requireRestRole(
  store: Pick<Repository, 'heldAccess'>,
  claims: AccessTokenClaims,
  allowed: readonly string[],
): Promise<void> {
  const held = claims.grant_id === undefined ? [] : (await store.heldAccess(claims.sub, REST_API_AUDIENCE)).roles;
  requireOneRole(held, allowed);
}

/** A line for the served document naming the roles an operation needs. */
export function rolesDescription(roles: readonly string[]): string {
  return (
    `Requires the role ${roles.map((role) => `\`${role}\``).join(' or ')} (x-required-roles): a role of ` +
    `this API or a server-wide one, held by the token's user, else 403 insufficient-role.`
  );
}
