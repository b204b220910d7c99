import type { AuditTrail } from '../audit/audit.js';
import type { OrganizationRow } from '../store/organization-repository.js';
import type { Repository } from '../store/repository.js';
import type { UserRecord } from '../store/identity-repository.js';
import { parsePolicy, type OrganizationPolicy } from './policy.js';
import { isPublicMailDomain } from './public-mail-domains.js';

/** The scope by which a client asks for an organization in its tokens (a chooser when the user has several). */
export const ORGANIZATION_SCOPE = 'organization';

/** The claims of a token issued for an organization. */
export interface OrganizationClaims {
  readonly org_id: string;
  readonly org_name: string;
  readonly org_roles: readonly string[];
}

/** The domain of a verified e-mail address of the user; undefined when it has none verified (OIDC Core §5.1). */
export function verifiedEmailDomain(user: Pick<UserRecord, 'claims'>): string | undefined {
  const { email, email_verified: verified } = user.claims as { email?: unknown; email_verified?: unknown };
  if (verified !== true || typeof email !== 'string') return undefined;
  const at = email.lastIndexOf('@');
  return at < 0 ? undefined : email.slice(at + 1).toLowerCase();
}

/**
 * The organization whose verified domain is `domain`, if any (never for a public mail domain, which
 * no organization can have). Home-realm discovery and JIT membership ask this.
 */
export async function organizationOfDomain(repo: Repository, domain: string): Promise<OrganizationRow | undefined> {
  const normalized = domain.trim().toLowerCase().replace(/\.$/, '');
  if (normalized === '' || isPublicMailDomain(normalized)) return undefined;
  const row = await repo.findOrganizationDomain(normalized);
  if (row === undefined || row.verifiedAt === null) return undefined;
  return repo.findOrganization(row.organizationId);
}

/**
 * Home-realm discovery by organization: the upstream provider (federation) an organization sends the
 * addresses of its verified domains to (`policy.upstream`), for an e-mail typed on the sign-in page.
 */
export async function upstreamOfEmail(repo: Repository, email: string): Promise<string | undefined> {
  const at = email.lastIndexOf('@');
  if (at < 1) return undefined;
  const organization = await organizationOfDomain(repo, email.slice(at + 1));
  return organization === undefined ? undefined : (parsePolicy(organization.policy).upstream ?? undefined);
}

/**
 * JIT membership, at the end of every sign-in: a user whose e-mail address is verified
 * (`email_verified` true, never an unverified one: anyone can type any address) and whose domain is
 * an organization's verified domain becomes a member, with the organization's `default_role`.
 * Returns the organization joined now, if any; a member already is left as it is.
 */
export async function joinByVerifiedDomain(
  store: Repository,
  trail: AuditTrail,
  user: UserRecord,
  now: number,
): Promise<OrganizationRow | undefined> {
  const domain = verifiedEmailDomain(user);
  if (domain === undefined) return undefined;
  const organization = await organizationOfDomain(store, domain);
  if (organization === undefined) return undefined;
  if ((await store.findOrganizationMember(organization.id, user.subject)) !== undefined) return undefined;
  const { default_role: role } = parsePolicy(organization.policy);
  return trail.transaction(async (tx, audit) => {
    const joined = await tx.insertOrganizationMember({
      organizationId: organization.id,
      subject: user.subject,
      roles: role === null ? [] : [role],
      source: 'domain',
      joinedAt: now,
    });
    if (!joined) return undefined;
    await audit({
      event: 'organization_member_added',
      at: now,
      subject: user.subject,
      reason: `${organization.id} ${domain}`,
    });
    return organization;
  });
}

/** What /authorize does about organizations for one request and user. */
export type OrganizationChoice =
  | { readonly kind: 'none' }
  | { readonly kind: 'chosen'; readonly organization: OrganizationRow; readonly policy: OrganizationPolicy }
  | { readonly kind: 'choose'; readonly organizations: readonly OrganizationRow[] }
  /** The request names an organization that does not exist or that the user is not a member of. */
  | { readonly kind: 'not_member' };

/**
 * The organization of an authorization request: the one its `organization` parameter names (by id or
 * slug), which the user must be a member of; else, when the client asks for one (the `organization`
 * scope), the user's only organization, or a choice among several; else none.
 */
export async function chooseOrganization(
  repo: Repository,
  subject: string,
  request: { readonly requested: string | undefined; readonly scope: readonly string[] },
): Promise<OrganizationChoice> {
  if (request.requested !== undefined) {
    const organization = await repo.findOrganization(request.requested);
    if (organization === undefined || (await repo.findOrganizationMember(organization.id, subject)) === undefined)
      return { kind: 'not_member' };
    return { kind: 'chosen', organization, policy: parsePolicy(organization.policy) };
  }
  if (!request.scope.includes(ORGANIZATION_SCOPE)) return { kind: 'none' };
  const memberships = await repo.listMembershipsOf(subject);
  const [only] = memberships;
  if (memberships.length === 1 && only !== undefined)
    return { kind: 'chosen', organization: only.organization, policy: parsePolicy(only.organization.policy) };
  if (memberships.length === 0) return { kind: 'none' };
  return { kind: 'choose', organizations: memberships.map((m) => m.organization) };
}

/**
 * The organization claims of a token of `subject` for `organizationId`, read now (so that a role
 * removed is gone from the next token); undefined when the organization or the membership is gone.
 */
export async function organizationClaims(
  repo: Repository,
  organizationId: string,
  subject: string,
): Promise<OrganizationClaims | undefined> {
  const organization = await repo.findOrganization(organizationId);
  const member = organization && (await repo.findOrganizationMember(organization.id, subject));
  if (organization === undefined || member === undefined) return undefined;
  return { org_id: organization.id, org_name: organization.name, org_roles: member.roles };
}
