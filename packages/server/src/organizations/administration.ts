import type { Actor, AuditRecorder, AuditTrail } from '../audit/audit.js';
import { newId } from '../primitives/ids.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import type {
  OrganizationDomainRow,
  OrganizationMemberRow,
  OrganizationRow,
} from '../store/organization-repository.js';
import type { Repository } from '../store/repository.js';
import { normalizeUsername } from '../users/users.js';
import { changedPolicy, DEFAULT_POLICY, parsePolicy, type PolicyChange } from './policy.js';
import { isPublicMailDomain } from './public-mail-domains.js';

/**
 * The operator's changes to organizations, one path for `gatehouse orgs` and the admin API. Each is
 * one transaction that records its audit event with the actor, so a refused change writes nothing.
 * Members are named by username and stored (and audited) by their opaque subject.
 */

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const ROLE = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
// RFC 1035 §2.3.1 labels, at least two of them, lower case (RFC 4343: domain names compare without case).
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export interface NewOrganization {
  readonly slug: string;
  readonly name?: string | undefined;
  readonly roles?: readonly string[] | undefined;
}

/** What an operator sees of an organization. */
export function describeOrganization(o: OrganizationRow): Record<string, unknown> {
  return {
    id: o.id,
    slug: o.slug,
    name: o.name,
    roles: o.roles,
    policy: parsePolicy(o.policy),
    created_at: new Date(o.createdAt * 1000).toISOString(),
  };
}

export function describeMember(m: OrganizationMemberRow, username: string | null): Record<string, unknown> {
  return {
    subject: m.subject,
    username,
    roles: m.roles,
    source: m.source,
    joined_at: new Date(m.joinedAt * 1000).toISOString(),
  };
}

export function describeDomain(d: OrganizationDomainRow): Record<string, unknown> {
  return {
    domain: d.domain,
    verified: d.verifiedAt !== null,
    verified_at: d.verifiedAt === null ? null : new Date(d.verifiedAt * 1000).toISOString(),
  };
}

function checkedRoles(roles: readonly string[]): string[] {
  for (const role of roles)
    if (!ROLE.test(role))
      throw new OperatorInputError(`role '${role}': letters, digits and _ . : - only, at most 64, not first`);
  return [...new Set(roles)];
}

/** The organization named by id or slug, or a not_found refusal. */
export async function existingOrganization(repo: Repository, idOrSlug: string): Promise<OrganizationRow> {
  const found = await repo.findOrganization(idOrSlug);
  if (found === undefined) throw new OperatorInputError(`no organization '${idOrSlug}'`, 'not_found');
  return found;
}

export async function createOrganization(
  trail: AuditTrail,
  input: NewOrganization,
  now: number,
  actor: Actor,
): Promise<OrganizationRow> {
  if (!SLUG.test(input.slug))
    throw new OperatorInputError(
      `slug '${input.slug}': lower case letters, digits and hyphens, at most 63, not first or last`,
    );
  const name = (input.name ?? input.slug).trim();
  if (name === '' || name.length > 200) throw new OperatorInputError('name: 1 to 200 characters');
  const row: OrganizationRow = {
    id: `org_${newId()}`,
    slug: input.slug,
    name,
    roles: checkedRoles(input.roles ?? []),
    policy: JSON.stringify(DEFAULT_POLICY),
    createdAt: now,
    updatedAt: now,
  };
  return trail.transaction(async (tx, audit) => {
    if ((await tx.findOrganization(row.slug)) !== undefined || !(await tx.insertOrganization(row)))
      throw new OperatorInputError(`organization '${row.slug}' already exists`, 'conflict');
    await audit({ event: 'organization_changed', at: now, reason: `${row.id} created`, actor: actor.id });
    return row;
  });
}

export interface OrganizationChange {
  readonly name?: string | undefined;
  /** Roles to define. */
  readonly addRoles?: readonly string[] | undefined;
  /** Roles to remove: members holding one lose it. */
  readonly removeRoles?: readonly string[] | undefined;
  readonly policy?: PolicyChange | undefined;
}

/** Renames, defines or removes roles, changes the policy: one change, one event. */
export async function changeOrganization(
  trail: AuditTrail,
  idOrSlug: string,
  change: OrganizationChange,
  now: number,
  actor: Actor,
): Promise<OrganizationRow> {
  return trail.transaction(async (tx, audit) => {
    const current = await existingOrganization(tx, idOrSlug);
    const name = change.name === undefined ? current.name : change.name.trim();
    if (name === '' || name.length > 200) throw new OperatorInputError('name: 1 to 200 characters');
    const removed = new Set(change.removeRoles ?? []);
    for (const role of removed)
      if (!current.roles.includes(role)) throw new OperatorInputError(`'${role}' is not a role of '${current.slug}'`);
    const roles = checkedRoles([...current.roles.filter((r) => !removed.has(r)), ...(change.addRoles ?? [])]);
    const policy = changedPolicy(parsePolicy(current.policy), change.policy ?? {}, roles);
    if (policy.upstream !== null && (await tx.findUpstreamProvider(policy.upstream)) === undefined)
      throw new OperatorInputError(`upstream: no upstream '${policy.upstream}' (gatehouse upstreams list)`);
    const row: OrganizationRow = { ...current, name, roles, policy: JSON.stringify(policy), updatedAt: now };
    await tx.updateOrganization(row);
    if (removed.size > 0)
      for (const member of await tx.listOrganizationMembers(current.id))
        if (member.roles.some((r) => removed.has(r)))
          await tx.putOrganizationMember({ ...member, roles: member.roles.filter((r) => !removed.has(r)) });
    const what = [
      change.name === undefined ? undefined : 'name',
      change.addRoles === undefined && change.removeRoles === undefined ? undefined : 'roles',
      change.policy === undefined ? undefined : 'policy',
    ].filter((w) => w !== undefined);
    await audit({ event: 'organization_changed', at: now, reason: `${row.id} ${what.join(',')}`, actor: actor.id });
    return row;
  });
}

/** Removes the organization, its members and domains, and revokes the grants made for it. */
export async function removeOrganization(trail: AuditTrail, idOrSlug: string, now: number, actor: Actor) {
  await trail.transaction(async (tx, audit) => {
    const organization = await existingOrganization(tx, idOrSlug);
    for (const member of await tx.listOrganizationMembers(organization.id))
      await revokeOrganizationGrants(tx, audit, organization.id, member.subject, now, actor);
    await tx.removeOrganization(organization.id);
    await audit({ event: 'organization_removed', at: now, reason: organization.id, actor: actor.id });
  });
}

async function subjectOf(repo: Repository, username: string): Promise<string> {
  const user = await repo.findUser(normalizeUsername(username));
  if (user === undefined) throw new OperatorInputError(`no user '${username}'`, 'not_found');
  return user.subject;
}

function checkedMemberRoles(organization: OrganizationRow, roles: readonly string[]): string[] {
  for (const role of roles)
    if (!organization.roles.includes(role))
      throw new OperatorInputError(
        `'${role}' is not a role of '${organization.slug}' (its roles: ${organization.roles.join(', ') || 'none'})`,
      );
  return [...new Set(roles)];
}

/** Makes the user a member with exactly `roles`, or sets the roles of a member. */
export async function putMember(
  trail: AuditTrail,
  idOrSlug: string,
  username: string,
  roles: readonly string[],
  now: number,
  actor: Actor,
): Promise<OrganizationMemberRow> {
  return trail.transaction(async (tx, audit) => {
    const organization = await existingOrganization(tx, idOrSlug);
    const subject = await subjectOf(tx, username);
    const checked = checkedMemberRoles(organization, roles);
    const existing = await tx.findOrganizationMember(organization.id, subject);
    const member: OrganizationMemberRow = existing
      ? { ...existing, roles: checked }
      : { organizationId: organization.id, subject, roles: checked, source: 'operator', joinedAt: now };
    await tx.putOrganizationMember(member);
    await audit({
      event: 'organization_member_added',
      at: now,
      subject,
      reason: `${organization.id} ${checked.join(' ')}`.trim(),
      actor: actor.id,
    });
    return member;
  });
}

/**
 * Removes a member, and revokes the grants the member was given for the organization (with the
 * token exchanges made from them): their next refresh is `invalid_grant`, their access tokens are
 * refused by every bearer check. In one transaction: a refresh that commits after it carries nothing.
 */
export async function removeMember(trail: AuditTrail, idOrSlug: string, username: string, now: number, actor: Actor) {
  await trail.transaction(async (tx, audit) => {
    const organization = await existingOrganization(tx, idOrSlug);
    const subject = await subjectOf(tx, username);
    if (!(await tx.removeOrganizationMember(organization.id, subject)))
      throw new OperatorInputError(`'${username}' is not a member of '${organization.slug}'`, 'not_found');
    await revokeOrganizationGrants(tx, audit, organization.id, subject, now, actor);
    await audit({ event: 'organization_member_removed', at: now, subject, reason: organization.id, actor: actor.id });
  });
}

async function revokeOrganizationGrants(
  tx: Repository,
  audit: AuditRecorder,
  organizationId: string,
  subject: string,
  now: number,
  actor: Actor,
): Promise<void> {
  for (const id of await tx.listOrganizationGrantIds(organizationId, subject))
    for (const revoked of await tx.revokeGrant(id, 'revoked_by_admin', now, 'parent_revoked'))
      await audit({
        event: 'grant_revoked',
        at: now,
        clientId: revoked.clientId,
        subject: revoked.subject,
        grantId: revoked.id,
        reason: 'revoked_by_admin',
        actor: actor.id,
      });
}

/** A domain as typed, checked: lower case, no trailing dot, never a public mail domain. */
export function checkedDomain(typed: string): string {
  const domain = typed.trim().toLowerCase().replace(/\.$/, '');
  if (!DOMAIN.test(domain)) throw new OperatorInputError(`'${typed}' is not a domain name`);
  if (isPublicMailDomain(domain))
    throw new OperatorInputError(
      `'${domain}' is a public mail domain: anyone can have an address there, so it cannot be an organization's`,
      'organization_domain_public',
    );
  return domain;
}

/**
 * Adds an e-mail domain to the organization; `verified` when the operator vouches for it (it then
 * counts for JIT membership and home-realm discovery at once). A domain belongs to one organization.
 */
export async function addDomain(
  trail: AuditTrail,
  idOrSlug: string,
  typed: string,
  verified: boolean,
  now: number,
  actor: Actor,
): Promise<OrganizationDomainRow> {
  const domain = checkedDomain(typed);
  return trail.transaction(async (tx, audit) => {
    const organization = await existingOrganization(tx, idOrSlug);
    const row = { domain, organizationId: organization.id, verifiedAt: verified ? now : null, createdAt: now };
    const existing = await tx.findOrganizationDomain(domain);
    if (existing !== undefined && existing.organizationId !== organization.id)
      throw new OperatorInputError(`'${domain}' is another organization's domain`, 'conflict');
    if (existing === undefined) await tx.insertOrganizationDomain(row);
    else if (verified) await tx.verifyOrganizationDomain(domain, now);
    const stored = (await tx.findOrganizationDomain(domain)) as OrganizationDomainRow;
    const change =
      existing === undefined
        ? `added${verified ? ' verified' : ''}`
        : stored.verifiedAt !== existing.verifiedAt
          ? 'verified'
          : undefined;
    if (change !== undefined)
      await audit({
        event: 'organization_domain_changed',
        at: now,
        reason: `${organization.id} ${domain} ${change}`,
        actor: actor.id,
      });
    return stored;
  });
}

export async function removeDomain(trail: AuditTrail, idOrSlug: string, typed: string, now: number, actor: Actor) {
  const domain = typed.trim().toLowerCase().replace(/\.$/, '');
  await trail.transaction(async (tx, audit) => {
    const organization = await existingOrganization(tx, idOrSlug);
    if (!(await tx.removeOrganizationDomain(organization.id, domain)))
      throw new OperatorInputError(`'${domain}' is not a domain of '${organization.slug}'`, 'not_found');
    await audit({
      event: 'organization_domain_changed',
      at: now,
      reason: `${organization.id} ${domain} removed`,
      actor: actor.id,
    });
  });
}

/** The members of an organization with their usernames (null for a user removed since). */
export async function listMembers(
  repo: Repository,
  idOrSlug: string,
): Promise<{ member: OrganizationMemberRow; username: string | null }[]> {
  const organization = await existingOrganization(repo, idOrSlug);
  const members = await repo.listOrganizationMembers(organization.id);
  return Promise.all(
    members.map(async (member) => ({
      member,
      username: (await repo.findUserBySubject(member.subject))?.username ?? null,
    })),
  );
}
