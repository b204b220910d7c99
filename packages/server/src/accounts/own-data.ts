import type { AuditTrail } from '../audit/audit.js';
import { auditEventJson } from '../audit/audit.js';
import type { UserRecord } from '../store/identity-repository.js';
import type { Store } from '../store/store.js';

/** Where the account page's forms post: the download of the user's data, and the account's deletion. */
export const OWN_DATA_PATH = '/account/data';
export const DELETE_ACCOUNT_PATH = '/account/delete';

const iso = (seconds: number | null): string | null =>
  seconds === null ? null : new Date(seconds * 1000).toISOString();

/**
 * Everything the store holds about a user, for the user (GDPR Art. 15 access, Art. 20 portability):
 * its claims, its second factors and passkeys as metadata (never a secret, a public key or a
 * recovery code), its federated identities, its live grants (each the consent it gave a client),
 * its browser sessions (never their cookies' digests or CSRF tokens), its groups, roles and
 * organizations, the mails about it (never their bodies or links) and the audit events about it.
 * Wire names in snake_case, times in RFC 3339.
 */
export async function exportAccountData(store: Store, user: UserRecord, now: number): Promise<Record<string, unknown>> {
  const { subject, username } = user;
  const [factors, recoveryCodes, passkeys, linked, grants, sessions, groups, roles, memberships, mail, events] =
    await Promise.all([
      store.listSecondFactors(subject),
      store.countRecoveryCodes(subject),
      store.listPasskeys(subject),
      store.listFederatedIdentitiesOf(username),
      store.listAccountGrants(subject, now),
      store.listBrowserSessionsOf(username),
      store.listGroupNamesOf(subject),
      store.listRolesOf(subject),
      store.listMembershipsOf(subject),
      store.listMailAbout(subject),
      store.listAuditEventsAbout(subject, username),
    ]);
  return {
    exported_at: iso(now),
    user: {
      subject,
      username,
      claims: user.claims,
      created_at: iso(user.createdAt),
      updated_at: iso(user.updatedAt),
      disabled_at: iso(user.disabledAt ?? null),
      second_factor_required: user.secondFactorRequired ?? false,
      password_temporary: user.passwordTemporary ?? false,
      terms_accepted: user.termsAccepted
        ? { version: user.termsAccepted.version, at: iso(user.termsAccepted.at) }
        : null,
    },
    second_factors: factors.map((f) => ({
      kind: f.kind,
      created_at: iso(f.createdAt),
      last_used_at: iso(f.lastUsedAt),
    })),
    recovery_codes_left: recoveryCodes,
    passkeys: passkeys.map((p) => ({
      name: p.name,
      created_at: iso(p.createdAt),
      last_used_at: iso(p.lastUsedAt),
      transports: p.transports,
      backup_eligible: p.backupEligible,
      backed_up: p.backedUp,
    })),
    federated_identities: linked.map((l) => ({
      issuer: l.issuer,
      subject: l.subject,
      provider: l.providerId,
      linked_at: iso(l.linkedAt),
    })),
    grants: grants.map(({ grant, clientName, lastUsedAt }) => ({
      id: grant.id,
      client_id: grant.clientId,
      client_name: clientName,
      scope: grant.scope.join(' '),
      created_at: iso(grant.createdAt),
      expires_at: iso(grant.expiresAt),
      last_used_at: iso(lastUsedAt),
    })),
    sessions: sessions.map((s) => ({
      created_at: iso(s.createdAt),
      expires_at: iso(s.expiresAt),
      signed_in_at: iso(s.authenticatedAt),
      methods: s.methods.map((m) => ({ method: m.method, at: iso(m.at) })),
    })),
    groups,
    roles: roles.map((r) => ({ name: r.name, scope: r.scopeKind, ...(r.scopeId === '' ? {} : { of: r.scopeId }) })),
    organizations: memberships.map(({ organization, member }) => ({
      slug: organization.slug,
      name: organization.name,
      roles: member.roles,
      joined_at: iso(member.joinedAt),
    })),
    mail: mail.map((m) => ({
      kind: m.kind,
      to: m.recipient,
      state: m.state,
      queued_at: new Date(m.createdMs).toISOString(),
      finished_at: m.finishedMs === null ? null : new Date(m.finishedMs).toISOString(),
    })),
    audit_events: events.map(auditEventJson),
  };
}

/**
 * Deletes the user's own account (GDPR Art. 17), in one transaction: the user row and with it its
 * browser sessions, passkeys, federated identities, group memberships and roles (foreign keys and
 * `removeUser`), its second factors and recovery codes, every grant revoked (`revoked_by_user`: its
 * refresh and access tokens stop working), its organization memberships and account links, its
 * queued mails; then the personal data taken out of what stays (docs/operating.md, "Retention"):
 * the audit trail keeps every event, without addresses and with the username replaced by the
 * opaque subject, and records `account_deleted`. False when the user was gone already.
 */
export async function deleteOwnAccount(
  audit: AuditTrail,
  user: UserRecord,
  request: { readonly address: string; readonly now: number },
): Promise<boolean> {
  const { subject, username } = user;
  const { now } = request;
  return audit.transaction(async (tx, record) => {
    const current = await tx.findUserBySubject(subject);
    if (!current || !(await tx.removeUser(current.username))) return false;
    await tx.deleteSecondFactors(subject);
    await tx.deleteBrowserSessionsOf(current.username);
    const grantsRevoked = await tx.revokeGrantsOf(subject, 'revoked_by_user', now);
    if (grantsRevoked > 0) await record({ event: 'grant_revoked', at: now, subject, reason: 'revoked_by_user' });
    const rewritten = await tx.forgetPersonalData(subject, username);
    // Recorded without the address: the event outlives the account, and says only what happened.
    await record({
      event: 'account_deleted',
      at: now,
      subject,
      reason: `${grantsRevoked} grants revoked, ${rewritten} audit events kept without personal data`,
    });
    return true;
  });
}

/** Records that the user downloaded its data. */
export async function auditExport(audit: AuditTrail, subject: string, address: string, now: number): Promise<void> {
  await audit.record({ event: 'account_data_exported', at: now, subject, address });
}
