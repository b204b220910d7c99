import { OAuthError } from '@gatehouse/contract';
import { ORGANIZATION_SCOPE, organizationClaims, type OrganizationClaims } from '../../organizations/index.js';
import type { GrantRecord } from '../../primitives/records.js';
import type { Repository } from '../../store/repository.js';
import type { GrantHolderAccess } from '../../store/access-resolution.js';

/**
 * The organization claims of a token of `grant` (`org_id`, `org_name`, `org_roles`), read at each
 * issuance so that a role taken from the member is gone from the next token; none for a grant made
 * for no organization. Removing the member revokes its grants for the organization in the same
 * transaction, so a membership found gone here was removed after this exchange committed: the
 * token is refused as the revoked grant's next use will be (RFC 6749 §5.2 invalid_grant), never
 * issued without its organization.
 */
export async function grantOrganization(
  store: Repository,
  grant: Pick<GrantRecord, 'organizationId' | 'subject'>,
): Promise<OrganizationClaims | undefined> {
  if (grant.organizationId == null) return undefined;
  return memberOrRevoked(await organizationClaims(store, grant.organizationId, grant.subject));
}

/**
 * `grantOrganization` from the membership the store read with the refresh token (the same rule,
 * `GrantHolderAccess.organization`): null when the user is no longer the organization's member.
 */
export function heldGrantOrganization(
  grant: Pick<GrantRecord, 'organizationId'>,
  membership: GrantHolderAccess['organization'],
): OrganizationClaims | undefined {
  if (grant.organizationId == null) return undefined;
  return memberOrRevoked(
    membership === null || membership.id !== grant.organizationId
      ? undefined
      : { org_id: membership.id, org_name: membership.name, org_roles: membership.roles },
  );
}

function memberOrRevoked(claims: OrganizationClaims | undefined): OrganizationClaims {
  if (claims === undefined) throw new OAuthError('refresh_token_revoked');
  return claims;
}

/**
 * The organization claims an ID token or userinfo releases (OIDC Core §5.4: a scope asks for
 * claims): the grant's organization, only when its scope has `organization`. The access token,
 * which the APIs read, carries them whatever the scope.
 */
export function releasedOrganization(
  scope: readonly string[],
  organization: OrganizationClaims | undefined,
): OrganizationClaims | undefined {
  return scope.includes(ORGANIZATION_SCOPE) ? organization : undefined;
}

/**
 * The organization claims userinfo answers to an access token: those of the organization it names
 * (`org_id`), with the member's roles read now, when its scope has `organization`. A membership
 * gone since has revoked the token's grant, which the bearer check refused before.
 */
export async function userinfoOrganization(
  store: Repository,
  token: { readonly scope: readonly string[]; readonly org_id?: string | undefined; readonly sub: string },
): Promise<OrganizationClaims | undefined> {
  if (token.org_id === undefined || !token.scope.includes(ORGANIZATION_SCOPE)) return undefined;
  return organizationClaims(store, token.org_id, token.sub);
}
