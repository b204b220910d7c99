import { OAuthError } from '@gatehouse/contract';
import { AGENT_REFRESH_POLICY } from './clients.js';
import type { AuditTrail } from '../../audit/audit.js';
import { newId } from '../../primitives/ids.js';
import { newOpaqueSecret } from '../../primitives/random.js';
import type { ClientRecord } from '../../primitives/records.js';
import { digestOf, secretMatchesDigest } from '../../primitives/secrets.js';
import type { ClientRegistrationRecord } from '../../store/registration-repository.js';
import type { Store } from '../../store/store.js';
import type { Clock } from '../../primitives/clock.js';
import { checkClientMetadata, type ClientMetadata } from './client-metadata.js';
import { clientPresentationOf, type LogoFetcher } from './client-presentation.js';
import { clientFromRegistration } from './clients.js';

/**
 * Who may register a client at /register (`CLIENT_REGISTRATION`): nobody (`off`, the default),
 * holders of an initial access token from `gatehouse registration-tokens issue` (`token`), or
 * anyone, for a public client (`open`).
 */
export type RegistrationPolicy = 'off' | 'token' | 'open';
export const REGISTRATION_POLICIES: readonly RegistrationPolicy[] = ['off', 'token', 'open'];

export interface RegistrationServices {
  readonly store: Store;
  readonly audit: AuditTrail;
  readonly clock: Clock;
  readonly issuer: string;
  readonly clientRegistration: RegistrationPolicy;
  /** The scopes a registered client may ask for. */
  readonly registrableScopes: readonly string[];
  /** How a registered logo_uri is fetched, to be served from this origin (client-presentation.ts). */
  readonly clientLogos: LogoFetcher;
}

/** Who is asking: the bearer token the request carried, and its address for the audit trail. */
export interface RegistrationCaller {
  readonly token: string | undefined;
  readonly address: string;
}

/** RFC 7591 §3.2.1 and RFC 7592 §3: the client information response. */
export type ClientInformation = ClientMetadata & {
  readonly client_id: string;
  readonly client_secret?: string;
  readonly client_id_issued_at: number;
  readonly client_secret_expires_at?: number;
  readonly registration_access_token: string;
  readonly registration_client_uri: string;
};

/**
 * RFC 7591 §3: registers a client. The initial access token (required under `token`, optional
 * under `open`) is checked first, then the metadata; the token's use, the client and its
 * registration are written in one transaction, so a refused request leaves nothing behind.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7591#section-3 RFC 7591 §3
 */
export async function registerDynamicClient(
  services: RegistrationServices,
  body: unknown,
  caller: RegistrationCaller,
): Promise<ClientInformation> {
  const { store, clock } = services;
  const now = clock.now();
  const initialToken = caller.token === undefined ? undefined : digestOf(caller.token);
  if (services.clientRegistration === 'token' || initialToken !== undefined) {
    const token = initialToken === undefined ? undefined : await store.findRegistrationToken(initialToken);
    if (token === undefined || token.expiresAt <= now || token.uses >= token.maxUses) {
      await refuse(services, caller, 'initial_access_token_invalid');
    }
  }
  const metadata = checkClientMetadata(body, services.registrableScopes);
  // Confidential clients only through an operator's token: in `open` mode anyone could mint secrets.
  if (metadata.token_endpoint_auth_method !== 'none' && initialToken === undefined) {
    throw new OAuthError('confidential_registration_not_allowed');
  }
  const client = clientFromRegistration(registrationOf(newId(), metadata), now);
  // RFC 7523 §2.2: a client of private_key_jwt authenticates with its keys and gets no secret.
  const method = metadata.token_endpoint_auth_method;
  const secret = method === 'none' || method === 'private_key_jwt' ? null : newOpaqueSecret();
  const registrationAccessToken = newOpaqueSecret();
  const presentation = await clientPresentationOf(metadata, undefined, services.clientLogos);
  await services.audit.transaction(async (tx, audit) => {
    if (initialToken !== undefined && !(await tx.useRegistrationToken(initialToken, now))) {
      throw new OAuthError('initial_access_token_invalid');
    }
    await tx.insertClient({ ...client, secretDigest: secret === null ? null : digestOf(secret) });
    await tx.saveClientPresentation(client.id, presentation);
    await tx.insertClientRegistration({
      clientId: client.id,
      accessTokenDigest: digestOf(registrationAccessToken),
      metadata,
    });
    await audit({ event: 'client_registered', at: now, clientId: client.id, address: caller.address });
  });
  return clientInformation(services.issuer, client, metadata, registrationAccessToken, secret);
}

/** RFC 7592 §2.1: the client's current registration, for the holder of its registration access token. */
export async function readRegisteredClient(
  services: RegistrationServices,
  clientId: string,
  caller: RegistrationCaller,
): Promise<ClientInformation> {
  const { client, registration, token } = await authorizeManagement(services, clientId, caller);
  return clientInformation(services.issuer, client, registration.metadata as ClientMetadata, token, null);
}

/**
 * RFC 7592 §2.2: replaces the client's metadata with the request's (fields left out take their
 * defaults). The body names the client (`client_id`) and, if it sends `client_secret`, the current one.
 */
export async function updateRegisteredClient(
  services: RegistrationServices,
  clientId: string,
  body: unknown,
  caller: RegistrationCaller,
): Promise<ClientInformation> {
  const { client, registration, token } = await authorizeManagement(services, clientId, caller);
  const metadata = keepingProfile(
    client,
    checkClientMetadata(body, services.registrableScopes),
    body,
    services.registrableScopes,
  );
  const fields = body as Readonly<Record<string, unknown>>;
  if (fields['client_id'] !== clientId) throw new OAuthError('registered_client_id_mismatch');
  const sentSecret = fields['client_secret'];
  if (
    sentSecret !== undefined &&
    (typeof sentSecret !== 'string' ||
      client.secretDigest === null ||
      !secretMatchesDigest(sentSecret, client.secretDigest))
  ) {
    throw new OAuthError('registered_client_secret_mismatch');
  }
  // A public client would need a secret issued, a confidential one would keep a secret it no longer uses.
  if (metadata.token_endpoint_auth_method !== (registration.metadata as ClientMetadata).token_endpoint_auth_method) {
    throw new OAuthError('registered_auth_method_changed');
  }
  const updated: ClientRecord = {
    ...clientFromRegistration(registrationOf(clientId, metadata), client.createdAt),
    secretDigest: client.secretDigest,
  };
  const before = await services.store.findClientPresentation(clientId);
  const presentation = await clientPresentationOf(metadata, before, services.clientLogos);
  await services.audit.transaction(async (tx, audit) => {
    await tx.updateRegisteredClient(updated, metadata);
    await tx.saveClientPresentation(clientId, presentation);
    const at = services.clock.now();
    await audit({ event: 'client_registration_changed', at, clientId, reason: 'updated', address: caller.address });
  });
  return clientInformation(services.issuer, updated, metadata, token, null);
}

/**
 * A fapi2 client's profile is a floor its own updates cannot lower: one its registration leaves out
 * is kept (RFC 7592 §2.2: the server may ignore an omitted value; the response shows it), so an
 * operator's `profile` outlives a client that does not know the field, and `none` is refused. Only
 * an operator lowers it (`gatehouse clients update --profile none`, the admin API).
 */
function keepingProfile(
  client: ClientRecord,
  metadata: ClientMetadata,
  body: unknown,
  registrableScopes: readonly string[],
): ClientMetadata {
  if (client.profile !== 'fapi2' || metadata.profile === 'fapi2') return metadata;
  if (metadata.profile === 'none') throw new OAuthError('registered_profile_lowered');
  // Checked again as fapi2: the compliance check holds for the kept profile too.
  return checkClientMetadata({ ...(body as object), profile: 'fapi2' }, registrableScopes);
}

/** RFC 7592 §2.3: removes the client, and with it its grants, tokens and registration. */
export async function deleteRegisteredClient(
  services: RegistrationServices,
  clientId: string,
  caller: RegistrationCaller,
): Promise<void> {
  await authorizeManagement(services, clientId, caller);
  await services.audit.transaction(async (tx, audit) => {
    await tx.removeClient(clientId);
    const at = services.clock.now();
    await audit({ event: 'client_registration_changed', at, clientId, reason: 'deleted', address: caller.address });
  });
}

/**
 * RFC 7592 §3: the registration access token must be the one issued for this client. An unknown
 * client is answered like a wrong token (§2.1: 401), so client ids cannot be probed.
 */
async function authorizeManagement(
  services: RegistrationServices,
  clientId: string,
  caller: RegistrationCaller,
): Promise<{ client: ClientRecord; registration: ClientRegistrationRecord; token: string }> {
  const { token } = caller;
  const registration = token === undefined ? undefined : await services.store.findClientRegistration(clientId);
  const client = registration && (await services.store.findClient(clientId));
  if (token === undefined || !registration || !client || !secretMatchesDigest(token, registration.accessTokenDigest)) {
    return refuse(services, caller, 'registration_access_token_invalid', clientId);
  }
  return { client, registration, token };
}

async function refuse(
  services: RegistrationServices,
  caller: RegistrationCaller,
  reason: 'initial_access_token_invalid' | 'registration_access_token_invalid',
  clientId?: string,
): Promise<never> {
  await services.audit.record({
    event: 'registration_refused',
    at: services.clock.now(),
    clientId: clientId?.slice(0, 128),
    reason,
    address: caller.address,
  });
  throw new OAuthError(reason);
}

function registrationOf(id: string, metadata: ClientMetadata) {
  return {
    id,
    name: metadata.client_name ?? id,
    public: metadata.token_endpoint_auth_method === 'none',
    redirectUris: metadata.redirect_uris,
    grantTypes: metadata.grant_types,
    scope: metadata.scope.split(' ').filter((s) => s !== ''),
    // A public client that registers itself is an agent or a native app: the agents' replay window.
    ...(metadata.token_endpoint_auth_method === 'none' ? { replayWindow: AGENT_REFRESH_POLICY.replayWindow } : {}),
    jwks: metadata.jwks ?? null,
    jwksUri: metadata.jwks_uri ?? null,
    ...(metadata.token_endpoint_auth_method === 'private_key_jwt' ? { authMethod: 'private_key_jwt' as const } : {}),
    requirePushedAuthorizationRequests: metadata.require_pushed_authorization_requests === true,
    profile: metadata.profile ?? null,
  };
}

function clientInformation(
  issuer: string,
  client: ClientRecord,
  metadata: ClientMetadata,
  registrationAccessToken: string,
  secret: string | null,
): ClientInformation {
  return {
    client_id: client.id,
    // §3.2.1: client_secret_expires_at is required with a secret; 0 means it does not expire.
    ...(secret === null ? {} : { client_secret: secret, client_secret_expires_at: 0 }),
    client_id_issued_at: client.createdAt,
    ...metadata,
    // The profile the client is held to now, whoever set it (this registration or an operator).
    profile: client.profile ?? 'none',
    registration_access_token: registrationAccessToken,
    registration_client_uri: `${issuer}/register/${encodeURIComponent(client.id)}`,
  };
}
