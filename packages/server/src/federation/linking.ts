import type { AuditTrail } from '../audit/audit.js';
import { newId } from '../primitives/ids.js';
import type { UserRecord } from '../store/identity-repository.js';
import type { Repository } from '../store/repository.js';
import { mappedClaims, type UpstreamProvider } from './providers.js';
import type { UpstreamIdentity } from './relying-party.js';

/**
 * Who an upstream sign-in is, locally. A local user is linked to an upstream (`iss`, `sub`) pair
 * (OIDC Core §2: the pair, not the e-mail, identifies a person at an issuer), never by e-mail
 * alone: an e-mail shared with an existing account leads to that account only after its owner
 * proves it (its password or a passkey, link-proof.ts), or when the operator trusts this provider's
 * `email_verified` for that domain.
 */
export type Resolution =
  | { readonly kind: 'user'; readonly user: UserRecord }
  /** An account uses this e-mail: its owner must prove it (password or passkey) before it is linked. */
  | { readonly kind: 'prove'; readonly candidate: UserRecord }
  | { readonly kind: 'no_account'; readonly reason: string };

/** A provisioned user's password hash: not a scrypt hash, so no password ever matches it. */
export const NO_PASSWORD = 'federated$no-password';

/** Whether a user can sign in with a password (a provisioned one cannot until an operator sets one). */
export function hasPassword(user: UserRecord): boolean {
  return user.passwordHash.startsWith('scrypt$');
}

/**
 * What a sign-in with this identity comes to, read only (nothing linked, nobody made): the linked
 * user; an account of the same e-mail, linked at once where this provider's `email_verified` is
 * trusted for its domain, else after its owner's proof; a user to provision; or no account.
 * `resolveLocalUser` carries it out; an operator's test sign-in shows it (test-sign-in.ts).
 */
export type LocalPlan =
  Resolution | { readonly kind: 'link'; readonly candidate: UserRecord } | { readonly kind: 'provision' };

export async function planLocalUser(
  store: Repository,
  provider: UpstreamProvider,
  identity: UpstreamIdentity,
): Promise<LocalPlan> {
  const link = await store.findFederatedIdentity(identity.issuer, identity.subject);
  if (link) {
    const user = await store.findUser(link.username);
    if (!user) return { kind: 'no_account', reason: 'linked user removed' };
    if (user.disabledAt != null) return { kind: 'no_account', reason: 'user disabled' };
    return { kind: 'user', user };
  }
  const claims = mappedClaims(provider, identity.claims);
  const email = claims.email?.toLowerCase();
  const candidate = email === undefined ? undefined : await userWithEmail(store, email);
  if (candidate) {
    const domain = (email ?? '').slice((email ?? '').lastIndexOf('@') + 1);
    const trusted = identity.claims.email_verified === true && provider.trustEmailVerifiedDomains.includes(domain);
    return { kind: trusted ? 'link' : 'prove', candidate };
  }
  if (!provider.provision) return { kind: 'no_account', reason: 'provisioning off' };
  return { kind: 'provision' };
}

/** The user linked to the pair, provisioned or linked by policy, or what is needed first. */
export async function resolveLocalUser(
  store: Repository,
  audit: AuditTrail,
  provider: UpstreamProvider,
  identity: UpstreamIdentity,
  now: number,
): Promise<Resolution> {
  const plan = await planLocalUser(store, provider, identity);
  switch (plan.kind) {
    case 'link':
      await linkIdentity(store, audit, provider, identity, plan.candidate, now, 'email_verified trusted');
      return { kind: 'user', user: plan.candidate };
    case 'provision': {
      const user = await provisionUser(store, provider, identity, now);
      await linkIdentity(store, audit, provider, identity, user, now, 'provisioned');
      return { kind: 'user', user };
    }
    default:
      return plan;
  }
}

/** Links the pair to `user` and records it; a pair linked meanwhile (to anyone) is left as it is. */
export async function linkIdentity(
  store: Repository,
  audit: AuditTrail,
  provider: UpstreamProvider,
  identity: Pick<UpstreamIdentity, 'issuer' | 'subject'>,
  user: UserRecord,
  now: number,
  how: string,
): Promise<boolean> {
  const linked = await store.insertFederatedIdentity({
    issuer: identity.issuer,
    subject: identity.subject,
    providerId: provider.id,
    username: user.username,
    linkedAt: now,
  });
  if (linked)
    await audit.record({
      event: 'federated_identity_linked',
      at: now,
      subject: user.subject,
      reason: `${provider.id}: ${how}`,
    });
  return linked;
}

/** The one account whose `email` claim is this address (case-insensitive), if exactly one. */
export async function userWithEmail(store: Repository, email: string): Promise<UserRecord | undefined> {
  const matches = await store.listUsersWithEmail(email);
  return matches.length === 1 ? matches[0] : undefined;
}

const USERNAME_CHARS = /[^a-z0-9._@-]/g;

/** A username for a new user: the upstream's preferred_username or e-mail, made unique. */
export function usernameCandidates(provider: UpstreamProvider, identity: UpstreamIdentity): string[] {
  const claims = mappedClaims(provider, identity.claims);
  const base = (claims.preferred_username ?? claims.email ?? `${provider.id}-${identity.subject}`)
    .toLowerCase()
    .replace(USERNAME_CHARS, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 48);
  const stem = base === '' ? provider.id : base;
  return [stem, ...[2, 3, 4, 5].map((n) => `${stem}-${n}`), `${stem}-${newId().slice(0, 8).toLowerCase()}`];
}

/** Just-in-time provisioning: a user without a password, its claims mapped from the upstream's. */
async function provisionUser(
  store: Repository,
  provider: UpstreamProvider,
  identity: UpstreamIdentity,
  now: number,
): Promise<UserRecord> {
  const claims = mappedClaims(provider, identity.claims);
  for (const username of usernameCandidates(provider, identity)) {
    const user: UserRecord = {
      username,
      passwordHash: NO_PASSWORD,
      createdAt: now,
      updatedAt: now,
      subject: newId(),
      claims,
    };
    if (await store.insertUserIfAbsent(user)) return user;
  }
  throw new Error('no free username for a provisioned user');
}

/** Whether the user keeps a way to sign in once the pair is unlinked (RFC-free: our own rule). */
export async function mayUnlink(
  store: Repository,
  user: UserRecord,
  issuer: string,
  subject: string,
): Promise<boolean> {
  if (hasPassword(user)) return true;
  const links = await store.listFederatedIdentitiesOf(user.username);
  return links.some((l) => l.issuer !== issuer || l.subject !== subject);
}
