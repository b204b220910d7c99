import type { Actor, AuditTrail } from '../../audit/audit.js';
import { isPublicClient } from '../../primitives/records.js';
import { OperatorInputError } from '../../primitives/operator-input-error.js';
import { newOpaqueSecret } from '../../primitives/random.js';
import type { ClientRecord } from '../../primitives/records.js';
import { digestOf } from '../../primitives/secrets.js';
import type { Repository } from '../../store/repository.js';
import { clientFromRegistration, registerClient, type ClientRegistration } from './clients.js';

/**
 * The administrative changes of clients, shared by `gatehouse clients` and the admin API. Each is
 * one transaction that also records its audit event with the actor (an admin client's id, or `cli`),
 * so a refused change writes nothing and an accepted one is never unaudited. Secrets exist in
 * plaintext only in the answer that creates them.
 */

/** What a client's replacement may change: everything but its id, its type and whether it is an admin client. */
export type ClientChanges = Omit<ClientRegistration, 'id' | 'public' | 'admin' | 'authMethod'>;

export interface ClientWithSecret {
  readonly client: ClientRecord;
  readonly secret: string | null;
}

export async function createClient(
  trail: AuditTrail,
  registration: ClientRegistration,
  now: number,
  actor: Actor,
): Promise<ClientWithSecret> {
  return trail.transaction(async (tx, audit) => {
    const created = await registerClient(tx, registration, now);
    await audit({ event: 'client_created', at: now, clientId: created.client.id, actor: actor.id });
    return created;
  });
}

/**
 * Replaces a client's registration, checked as a new one is; its id, type, secret and creation time
 * stay. `changes` may be a function of the current settings (`gatehouse clients update` changes only
 * the settings it is given), called inside the transaction, so no concurrent change is lost.
 */
export async function updateClient(
  trail: AuditTrail,
  id: string,
  changes: ClientChanges | ((current: ClientChanges) => ClientChanges),
  now: number,
  actor: Actor,
): Promise<ClientRecord> {
  return trail.transaction(async (tx, audit) => {
    const current = await existingClient(tx, id);
    const settings = typeof changes === 'function' ? changes(clientSettings(current)) : changes;
    const replaced: ClientRecord = {
      ...clientFromRegistration(
        {
          ...settings,
          id,
          public: isPublicClient(current),
          admin: current.admin === true,
          ...(current.authMethod === undefined ? {} : { authMethod: current.authMethod }),
        },
        current.createdAt,
        { idStored: true },
      ),
      secretDigest: current.secretDigest,
    };
    await tx.replaceClient(replaced);
    await audit({ event: 'client_updated', at: now, clientId: id, actor: actor.id });
    return replaced;
  });
}

/**
 * Gives a confidential client a new secret; the old one stops working at once. Access tokens
 * already issued stay valid until they expire (RFC 6749 §2.3.1 says nothing of them); delete the
 * client to end them.
 */
export async function rotateClientSecret(
  trail: AuditTrail,
  id: string,
  now: number,
  actor: Actor,
): Promise<{ client: ClientRecord; secret: string }> {
  return trail.transaction(async (tx, audit) => {
    const current = await existingClient(tx, id);
    if (current.secretDigest === null) throw new OperatorInputError(`client '${id}' is public: it has no secret`);
    const secret = newOpaqueSecret();
    const client: ClientRecord = { ...current, secretDigest: digestOf(secret) };
    await tx.replaceClient(client);
    await audit({ event: 'client_secret_rotated', at: now, clientId: id, actor: actor.id });
    return { client, secret };
  });
}

/**
 * Removes a client with its grants, refresh tokens and codes (by cascade); its client-credentials
 * access tokens are refused from then on (oauth/tokens/access-token-check.ts,
 * oauth/grant-administration/introspection.ts). False when there is no such client.
 */
export async function deleteClient(trail: AuditTrail, id: string, now: number, actor: Actor): Promise<boolean> {
  return trail.transaction(async (tx, audit) => {
    if (!(await tx.removeClient(id))) return false;
    await audit({ event: 'client_deleted', at: now, clientId: id, actor: actor.id });
    return true;
  });
}

/** A client's registered settings, as a replacement names them. */
export function clientSettings(client: ClientRecord): ClientChanges {
  return {
    name: client.name,
    redirectUris: client.redirectUris,
    grantTypes: client.grantTypes,
    scope: client.scope,
    rotation: client.policy.rotation,
    rotationLimit: client.policy.rotationLimit,
    maxRotations: client.policy.maxRotations,
    refreshTokenTtl: client.policy.refreshTokenTtl,
    refreshTokenAbsoluteTtl: client.policy.refreshTokenAbsoluteTtl,
    replayWindow: client.policy.replayWindow,
    accessTokenTtl: client.accessTokenTtl,
    resourceServer: client.resourceServer,
    idTokenAlg: client.idTokenAlg,
    postLogoutRedirectUris: client.postLogoutRedirectUris,
    exchangeAudiences: client.tokenExchange?.audiences ?? [],
    exchangeSubjectAudiences: client.tokenExchange?.subjectAudiences ?? [],
    exchangeImpersonation: client.tokenExchange?.impersonation ?? false,
    exchangeRefreshTokens: client.tokenExchange?.refreshTokens ?? false,
    jwks: client.jwks ?? null,
    jwksUri: client.jwksUri ?? null,
    requirePushedAuthorizationRequests: client.requirePushedAuthorizationRequests === true,
    ...(client.dpopBoundAccessTokens === true ? { dpopBoundAccessTokens: true } : {}),
    secondFactor: client.secondFactor,
    profile: client.profile ?? null,
  };
}

export async function existingClient(repo: Repository, id: string): Promise<ClientRecord> {
  const client = await repo.findClient(id);
  if (!client) throw new OperatorInputError(`no client '${id}'`, 'not_found');
  return client;
}
