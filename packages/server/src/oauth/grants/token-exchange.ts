import { OAuthError } from '@gatehouse/contract';
import { grantHandler } from './grant.js';
import { parseScope } from '../tokens/index.js';
import { grantOrganization, issueGrant, userAccessClaims } from '../tokens/index.js';
import { decideExchange, ExchangeRefused, type ExchangeDecision } from '../token-exchange/index.js';
import { noteTokenProof } from '../sender-constraints/index.js';
import type { ClientRecord } from '../../primitives/records.js';
import type { Repository } from '../../store/repository.js';

/**
 * grant_type=urn:ietf:params:oauth:grant-type:token-exchange (RFC 8693): a confidential client
 * exchanges a subject token (and, delegating, an actor token) for an access token for another
 * audience, never wider in scope; the rules are in oauth/token-exchange/token-exchange.ts, the client's policy in
 * its record. Every exchange is audited, issued or refused.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8693#section-2 RFC 8693 §2
 */
export const tokenExchangeGrant = grantHandler({
  grantType: 'urn:ietf:params:oauth:grant-type:token-exchange',
  // §2.1 `resource` and `audience` name other services' targets, which the policy judges.
  resolvesOwnTarget: true,
  notesDpopProof: true,
  async handle(params, client, services, proof) {
    // RFC 8693 §2.1 leaves client authentication to the server; this one exchanges for confidential clients only.
    if (client.secretDigest === null) throw new OAuthError('grant_type_not_allowed');
    const { store, audit, clock, accessTokens, trustedIssuers, issuer } = services;
    const now = clock.now();
    const actorToken = params.get('actor_token');
    const request = {
      client,
      subjectToken: params.require('subject_token'),
      subjectTokenType: params.require('subject_token_type'),
      actorToken,
      // §2.1: actor_token_type is REQUIRED when actor_token is present.
      actorTokenType: actorToken === undefined ? undefined : params.require('actor_token_type'),
      requestedTokenType: params.get('requested_token_type'),
      audience: params.get('audience'),
      resource: params.get('resource'),
      scope: parseScope(params.get('scope')),
      now,
    };
    let decision;
    try {
      decision = await decideExchange({ store, accessTokens, trustedIssuers, issuer }, request);
    } catch (error) {
      if (error instanceof ExchangeRefused)
        await audit.record({ event: 'token_exchange_refused', at: now, clientId: client.id, reason: error.refusal });
      throw error;
    }
    // An exchanged token is for its subject token's organization (its grant's), with the roles the
    // member holds now; never for one when the subject token is for none.
    const subjectGrant = decision.grantId === null ? undefined : await store.findGrant(decision.grantId);
    const organization = subjectGrant === undefined ? undefined : await grantOrganization(store, subjectGrant);
    // One transaction: the proof's jti (RFC 9449 §11.1), the child grant if any and the audit event,
    // so that a DPoP exchange costs no commit more than a plain one and a replayed proof issues nothing.
    const { refreshToken, grantId } = await audit.transaction(async (tx, record) => {
      if (proof !== undefined) await noteTokenProof(tx, proof);
      const issued = await issueChildGrant(tx, client, decision, now, subjectGrant?.organizationId);
      const grantId = issued?.grant.id ?? decision.grantId;
      await record({
        event: 'token_exchanged',
        at: now,
        clientId: client.id,
        subject: decision.subject,
        grantId,
        actor: decision.act?.sub ?? null,
        reason: `${decision.act === undefined ? 'impersonation' : 'delegation'} for ${decision.audience}`,
      });
      return { refreshToken: issued?.refreshToken ?? null, grantId };
    });
    // RFC 8693 §2.1: the user's roles for the new audience, never beyond the subject token's.
    const access = await userAccessClaims(
      store,
      accessTokens,
      decision.subject,
      decision.audience,
      decision.subjectAccess,
    );
    const access_token = accessTokens.mint({
      subject: decision.subject,
      clientId: client.id,
      scope: decision.scope,
      grantId,
      ttl: client.accessTokenTtl,
      now,
      act: decision.act,
      audience: decision.audience,
      notAfter: decision.notAfter,
      // RFC 9449 §5: a request with a DPoP proof gets a token bound to its key.
      ...(proof === undefined ? {} : { dpopJkt: proof.jkt }),
      access,
      organization,
    });
    return {
      access_token,
      // §2.2.1: REQUIRED; the access token is a JWT either way, typed as asked.
      issued_token_type: decision.issuedTokenType,
      token_type: proof === undefined ? 'Bearer' : 'DPoP',
      expires_in: Math.max(0, Math.min(now + client.accessTokenTtl, decision.notAfter) - now),
      ...(refreshToken === null ? {} : { refresh_token: refreshToken }),
      scope: decision.scope.join(' '),
    };
  },
});

/**
 * §2.1 requested_token_type refresh_token (by policy): a new grant of this client for the user, its
 * parent the subject token's grant, whose revocation revokes it (store revokeGrant). Undefined when
 * the exchange issues no refresh token.
 */
async function issueChildGrant(
  tx: Repository,
  client: ClientRecord,
  decision: ExchangeDecision,
  now: number,
  organizationId: string | null | undefined,
) {
  if (!decision.refreshToken || decision.grantId === null) return undefined;
  const parentGrantId = decision.grantId;
  const exchange = { ...(decision.act === undefined ? {} : { act: decision.act }), audience: decision.audience };
  // Refused if the parent was revoked since it was checked: no live child of a revoked grant.
  const parent = await tx.findGrantLivenessForChild(parentGrantId);
  if (parent === undefined || parent.revokedAt !== null) throw new ExchangeRefused('token_exchange_subject_invalid');
  const exchanged = { exchange, parentGrantId };
  return issueGrant(tx, client, decision.subject, decision.scope, now, undefined, exchanged, organizationId);
}
