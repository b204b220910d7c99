import { OperatorInputError } from '../primitives/operator-input-error.js';
import type { Repository } from '../store/repository.js';
import type { RoleScope } from '../store/role-repository.js';

/** The audience of the built-in REST API's roles (`--api /v2`). */
export const REST_API_AUDIENCE = '/v2';

/** Where the admin API is served: a token for it has the audience `{issuer}/admin/v1` (RFC 8707). */
export const ADMIN_API_PATH = '/admin/v1';

// Names travel in tokens (RFC 9068 §2.2.3.1 `roles`, `groups`): printable, no spaces, short.
const NAME = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,63}$/;

/** A group's or a role's name as typed, checked: 1 to 64 letters, digits and `. _ : @ -`. */
export function checkedName(kind: 'group' | 'role', name: string): string {
  if (!NAME.test(name))
    throw new OperatorInputError(
      `${kind} name '${name.slice(0, 80)}' is not allowed: use 1 to 64 letters, digits and . _ : @ -, starting with a letter or digit`,
    );
  return name;
}

/**
 * The scope a role is named in: server-wide, or an API's: `/v2` (the built-in REST API) or a client
 * registered as a resource server (`clients add --resource-server`).
 */
export async function checkedScope(store: Repository, api: string | undefined): Promise<RoleScope> {
  if (api === undefined) return { kind: 'server' };
  if (api === REST_API_AUDIENCE) return { kind: 'api', audience: api };
  const client = await store.findClient(api);
  if (client === undefined)
    throw new OperatorInputError(`there is no API '${api}': name /v2 or a resource server's client id`, 'not_found');
  if (!client.resourceServer)
    throw new OperatorInputError(
      `client '${api}' is not a resource server: only an API has roles (clients update ${api} --resource-server)`,
    );
  return { kind: 'api', audience: api };
}

/** How a scope is written in listings and messages: `server` or the API's audience. */
export function scopeLabel(scope: RoleScope): string {
  return scope.kind === 'server'
    ? 'server'
    : scope.kind === 'api'
      ? scope.audience
      : `organization ${scope.organizationId}`;
}
