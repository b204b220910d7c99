import type { UpstreamDirectory } from '../authorize/flow.js';
import type { KeyEncryption } from '../oauth/key-sealing.js';
import type { Repository } from '../store/repository.js';
import { listProviders } from './providers.js';
import { knownAuthorizationEndpoint } from './relying-party.js';

/**
 * What the sign-in page shows of the upstream providers (one store read per page), and the origins
 * its federation form may be redirected to: each issuer's, and each discovered authorization
 * endpoint's (CSP form-action applies to the redirect after a form, CSP3 §6.3.1.1).
 */
export function upstreamDirectory(store: Repository, encryption: KeyEncryption | undefined): UpstreamDirectory {
  return {
    async list() {
      return (await listProviders(store, encryption)).map((p) => ({
        id: p.id,
        displayName: p.displayName,
        icon: p.icon,
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
  };
}
