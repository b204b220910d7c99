import type { UpstreamDirectory } from '../authorize/flow.js';
import type { ServerContext } from '../context.js';
import { newOpaqueSecret } from '../primitives/random.js';
import { digestOf } from '../primitives/secrets.js';
import { iconPathOf } from './icon-route.js';
import { listProviders } from './providers.js';
import { knownAuthorizationEndpoint, upstreamLogoutUrl } from './relying-party.js';
import { UpstreamFailure } from './upstream-failures.js';
import { LOGOUT_SESSION, SIGNED_OUT_PATH, upstreamSessionId } from './routes.js';

/**
 * What the sign-in page shows of the upstream providers (one store read per page), and the origins
 * its federation form may be redirected to: each issuer's, and each discovered authorization
 * endpoint's (CSP form-action applies to the redirect after a form, CSP3 §6.3.1.1).
 */
export function upstreamDirectory(context: ServerContext): UpstreamDirectory {
  const { store, issuer, clock } = context;
  const encryption = context.keys.encryption;
  return {
    async list() {
      return (await listProviders(store, encryption)).map((p) => ({
        id: p.id,
        displayName: p.displayName,
        iconPath: iconPathOf(p),
      }));
    },
    async formTargets() {
      const origins = new Set<string>();
      for (const p of await listProviders(store, encryption)) {
        origins.add(new URL(p.issuer).origin);
        // Only what discovery found before: the sign-in page never waits on an upstream.
        const endpoint = knownAuthorizationEndpoint(p.id);
        if (endpoint !== undefined) origins.add(new URL(endpoint).origin);
      }
      return [...origins];
    },
    async endUpstreamSession(sessionId, returnTo) {
      const now = clock.now();
      const row = await store.takeFederationState(upstreamSessionId(sessionId), now);
      const provider = row && (await listProviders(store, encryption)).find((p) => p.id === row.providerId);
      if (!row || !provider?.endSession) return undefined;
      const { idToken } = JSON.parse(row.data) as { idToken: string };
      const state = newOpaqueSecret();
      try {
        const url = await upstreamLogoutUrl(provider, idToken, `${issuer}${SIGNED_OUT_PATH}`, state);
        if (url === undefined) return undefined;
        await store.insertFederationState({
          id: digestOf(state),
          sessionId: LOGOUT_SESSION,
          providerId: provider.id,
          data: JSON.stringify({ returnTo }),
          expiresAt: now + 10 * 60,
        });
        return url.href;
      } catch (error) {
        // The upstream is down: signed out here, which is what the person asked for most.
        if (error instanceof UpstreamFailure) return undefined;
        throw error;
      }
    },
  };
}
