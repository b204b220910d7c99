import type { Actor, AuditTrail } from '../audit/audit.js';
import { matchLocale, SUPPORTED_LOCALES, type Languages, type PageLocale } from '../i18n/index.js';
import { checkedAddress, type Outbox } from '../mail/index.js';
import { newId } from '../primitives/ids.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import { newOpaqueSecret } from '../primitives/random.js';
import { digestOf } from '../primitives/secrets.js';
import type { AccountLinkRecord } from '../store/account-link-repository.js';
import type { UserRecord } from '../store/identity-repository.js';
import type { OrganizationRow } from '../store/organization-repository.js';
import type { Repository } from '../store/repository.js';
import type { Store } from '../store/store.js';
import { accountMail } from './account-mail.js';

/** How long an invitation's link works unless the operator says otherwise, seconds: 7 days. */
export const INVITATION_TTL = 7 * 24 * 60 * 60;
/** The longest an operator may make it: 30 days. */
export const MAX_INVITATION_TTL = 30 * 24 * 60 * 60;

/** Where the mail's link leads (GET shows the form, POST accepts). */
export const INVITATION_PATH = '/invitation';

/** How many groups one invitation may name. */
const MAX_GROUPS = 20;

/** What inviting needs of the server: no request, no reply. */
export interface InvitationServices {
  readonly store: Store;
  readonly audit: AuditTrail;
  readonly mail: Outbox;
  readonly languages: Languages;
  readonly issuer: string;
}

/** What the operator asks for, from the CLI or the admin API. */
export interface InvitationOrder {
  readonly email: string;
  readonly groups?: readonly string[];
  /** An organization's id or slug, joined with `orgRoles` on acceptance. */
  readonly organization?: string;
  readonly orgRoles?: readonly string[];
  /** Seconds the link works; INVITATION_TTL when left out. */
  readonly ttl?: number;
  /** The mail's language when the address has no account that chose one; the server default else. */
  readonly locale?: string;
  readonly actor: Actor;
  readonly now: number;
}

/**
 * An invitation as the CLI and the admin API show it: the same fields whether the address has an
 * account or not (an operator's answer never tells which). The id is the digest of the link's
 * secret, never the link.
 */
export interface InvitationView {
  readonly id: string;
  readonly email: string;
  readonly groups: readonly string[];
  readonly organization: string | null;
  readonly org_roles: readonly string[];
  readonly created_at: string;
  readonly expires_at: string;
}

/** What an invitation's link carries besides its address (account_links.data). */
interface InvitationData {
  /** `new`: acceptance makes the account; `existing`: the account's owner signs in to accept. */
  readonly kind: 'new' | 'existing';
  readonly groups: readonly string[];
  readonly organization: string | null;
  readonly orgRoles: readonly string[];
}

function dataOf(link: AccountLinkRecord): InvitationData {
  const list = (value: string | undefined): string[] => (value ? (JSON.parse(value) as string[]) : []);
  return {
    kind: link.data.kind === 'existing' ? 'existing' : 'new',
    groups: list(link.data.groups),
    organization: link.data.organization ?? null,
    orgRoles: list(link.data.org_roles),
  };
}

export function describeInvitation(link: AccountLinkRecord): InvitationView {
  const data = dataOf(link);
  const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();
  return {
    id: link.id,
    email: link.email,
    groups: data.groups,
    organization: data.organization,
    org_roles: data.orgRoles,
    created_at: iso(link.createdAt),
    expires_at: iso(link.expiresAt),
  };
}

/** The address as an operator typed it, checked as the outbox checks a recipient, or a refusal. */
function checkedInvitee(typed: string): string {
  const email = typed.trim().normalize('NFC');
  try {
    return checkedAddress(email);
  } catch {
    // eslint-disable-next-line no-control-regex
    throw new OperatorInputError(`'${typed.replace(/[\u0000-\u001f\u007f]/g, '?')}' is not an e-mail address`);
  }
}

async function checkedTarget(
  store: Repository,
  order: InvitationOrder,
): Promise<{ groups: string[]; organization: OrganizationRow | undefined; orgRoles: string[] }> {
  const groups = [...new Set(order.groups ?? [])];
  if (groups.length > MAX_GROUPS) throw new OperatorInputError(`at most ${MAX_GROUPS} groups`);
  for (const name of groups)
    if ((await store.findGroupByName(name)) === undefined)
      throw new OperatorInputError(`no group '${name}'`, 'not_found');
  const orgRoles = [...new Set(order.orgRoles ?? [])];
  if (order.organization === undefined) {
    if (orgRoles.length > 0) throw new OperatorInputError('an organization role needs an organization');
    return { groups, organization: undefined, orgRoles };
  }
  const organization = await store.findOrganization(order.organization);
  if (organization === undefined) throw new OperatorInputError(`no organization '${order.organization}'`, 'not_found');
  for (const role of orgRoles)
    if (!organization.roles.includes(role))
      throw new OperatorInputError(
        `'${role}' is not a role of '${organization.slug}' (its roles: ${organization.roles.join(', ') || 'none'})`,
      );
  return { groups, organization, orgRoles };
}

/** The mail's language: the account's own choice, else the order's, else the server's default. */
function mailLocale(languages: Languages, user: UserRecord | undefined, order: InvitationOrder): PageLocale {
  const chosen = user?.claims.locale ?? order.locale;
  return (chosen && matchLocale(chosen, SUPPORTED_LOCALES)) || languages.defaultLocale;
}

/**
 * Invites a person by e-mail (docs/accounts.md, "Invitations"): a link with a 256-bit secret,
 * stored as its SHA-256 digest (purpose `invitation`), working once, for `ttl` (7 days by default),
 * queued in the outbox and audited `invitation_sent` in one transaction. An address no account
 * has gets "set your password" (the account is made on acceptance, with that address verified);
 * an address an enabled account has gets "sign in to accept" instead (the groups and organization
 * are added when its owner, signed in, accepts). The answer is the same either way.
 */
export async function inviteUser(services: InvitationServices, order: InvitationOrder): Promise<InvitationView> {
  const { store, audit, languages, issuer, mail } = services;
  const email = checkedInvitee(order.email);
  const ttl = order.ttl ?? INVITATION_TTL;
  if (!Number.isInteger(ttl) || ttl < 60 || ttl > MAX_INVITATION_TTL)
    throw new OperatorInputError(`an invitation works from 1 minute to ${MAX_INVITATION_TTL / 86400} days`);
  const { groups, organization, orgRoles } = await checkedTarget(store, order);
  const owners = (await store.listUsersWithEmail(email)).filter((u) => !u.disabledAt);
  const user = owners[0];
  const secret = newOpaqueSecret();
  const link: AccountLinkRecord = {
    id: digestOf(secret),
    purpose: 'invitation',
    // A new account's subject, chosen now: the invitation's audit events name it before it exists.
    subject: user?.subject ?? newId(),
    email,
    createdAt: order.now,
    expiresAt: order.now + ttl,
    usedAt: null,
    data: {
      kind: user ? 'existing' : 'new',
      groups: JSON.stringify(groups),
      ...(organization ? { organization: organization.id, org_roles: JSON.stringify(orgRoles) } : {}),
    },
  };
  const href = `${issuer}${INVITATION_PATH}?${new URLSearchParams({ token: secret })}`;
  const days = Math.max(1, Math.round(ttl / 86400));
  const where = organization ? organization.name : issuer;
  const message = accountMail(languages.text(mailLocale(languages, user, order)), {
    kind: 'invitation',
    to: email,
    userSubject: link.subject,
    subject: 'mail.invitation.subject',
    before: user
      ? [['mail.invitation.existing-lead', { where, username: user.username, days }]]
      : [['mail.invitation.lead', { where, days }]],
    action: { label: user ? 'mail.invitation.existing-action' : 'mail.invitation.action', href },
    after: [['mail.invitation.ignore']],
    issuer,
  });
  await audit.transaction(async (tx, record) => {
    await tx.deleteExpiredAccountLinks(order.now);
    await tx.insertAccountLink(link);
    await mail.queueMail({ tx, audit: record }, message);
    await record({
      event: 'invitation_sent',
      at: order.now,
      subject: link.subject,
      actor: order.actor.id,
      reason: invitationReason(groups, organization?.id, orgRoles),
    });
  });
  return describeInvitation(link);
}

function invitationReason(groups: readonly string[], organization: string | undefined, roles: readonly string[]) {
  const parts = [
    ...(groups.length > 0 ? [`groups=${groups.join(',')}`] : []),
    ...(organization
      ? [`organization=${organization}`, ...(roles.length > 0 ? [`roles=${roles.join(',')}`] : [])]
      : []),
  ];
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** The open invitations, oldest first. */
export async function listInvitations(store: Repository, now: number): Promise<InvitationView[]> {
  return (await store.listOpenAccountLinks('invitation', now)).map(describeInvitation);
}

/** Revokes an open invitation: its link stops working at once; audited `invitation_revoked`. */
export async function revokeInvitation(trail: AuditTrail, id: string, now: number, actor: Actor): Promise<void> {
  await trail.transaction(async (tx, record) => {
    const link = /^[0-9a-f]{64}$/.test(id) ? await tx.findAccountLink(id) : undefined;
    if (!link || link.purpose !== 'invitation' || !(await tx.deleteOpenAccountLink(id, 'invitation')))
      throw new OperatorInputError(`no open invitation '${id.slice(0, 64)}'`, 'not_found');
    await record({ event: 'invitation_revoked', at: now, subject: link.subject, actor: actor.id });
  });
}

/** An invitation a link opens: its record and what it carries. */
export interface OpenInvitation {
  readonly link: AccountLinkRecord;
  readonly kind: 'new' | 'existing';
  readonly groups: readonly string[];
  readonly organization: OrganizationRow | undefined;
  readonly orgRoles: readonly string[];
  /** The account it is for, when it is for an existing one. */
  readonly user: UserRecord | undefined;
}

/**
 * The invitation a link's secret opens, or undefined when it does not work: not a secret this
 * server made, of another purpose, used, revoked or expired; for a new account, an address some
 * account has taken since; for an existing account, one disabled, gone or with another address
 * since. Reading it changes nothing (a mail scanner that follows the link uses nothing).
 */
export async function openInvitation(
  store: Repository,
  secret: string,
  now: number,
): Promise<OpenInvitation | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(secret)) return undefined;
  const link = await store.findAccountLink(digestOf(secret));
  if (!link || link.purpose !== 'invitation' || link.usedAt !== null || link.expiresAt <= now) return undefined;
  const data = dataOf(link);
  const organization = data.organization === null ? undefined : await store.findOrganization(data.organization);
  const common = { link, groups: data.groups, organization, orgRoles: data.orgRoles };
  if (data.kind === 'new') {
    if ((await store.listUsersWithEmail(link.email)).length > 0) return undefined;
    return { ...common, kind: 'new', user: undefined };
  }
  const user = await store.findUserBySubject(link.subject);
  if (!user || user.disabledAt || user.claims.email?.toLowerCase() !== link.email.toLowerCase()) return undefined;
  return { ...common, kind: 'existing', user };
}

/**
 * Applies what an invitation gives, inside the acceptance's transaction: the groups that still
 * exist, and the organization (with its roles that still exist) when it still does. A member
 * already keeps its roles and gains the invitation's.
 */
export async function applyInvitation(tx: Repository, invitation: OpenInvitation, subject: string, now: number) {
  for (const name of invitation.groups) {
    const group = await tx.findGroupByName(name);
    if (group) await tx.addGroupMember(group.id, subject, now);
  }
  const organization = invitation.organization && (await tx.findOrganization(invitation.organization.id));
  if (!organization) return;
  const roles = invitation.orgRoles.filter((role) => organization.roles.includes(role));
  const existing = await tx.findOrganizationMember(organization.id, subject);
  await tx.putOrganizationMember(
    existing
      ? { ...existing, roles: [...new Set([...existing.roles, ...roles])] }
      : { organizationId: organization.id, subject, roles, source: 'invitation', joinedAt: now },
  );
}
