import { OAuthError } from '@gatehouse/contract';
import { organizationClaims, type OrganizationClaims } from '../../organizations/index.js';
import type { GrantRecord } from '../../primitives/records.js';
import type { Repository } from '../../store/repository.js';

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
  const claims = await organizationClaims(store, grant.organizationId, grant.subject);
  if (claims === undefined) throw new OAuthError('refresh_token_revoked');
  return claims;
}
