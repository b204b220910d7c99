import { isRegisteredRedirectUri } from '@gatehouse/contract';
import { isPublicClient, type ClientRecord } from '../../primitives/records.js';

/** The redirect URI rule lives in @gatehouse/contract, shared with the admin console. */
export {
  hasOnlyUriCharacters,
  isLoopbackIpRedirectUri,
  isRegisteredPostLogoutRedirectUri,
  isRegisteredRedirectUri,
  redirectUriRefusal,
  redirectUriRefusalMessage,
  URI_CHARACTERS_RULE,
  type RedirectUriClientKind,
} from '@gatehouse/contract';

/** {@link isRegisteredRedirectUri} for a client: public clients are native apps (RFC 8252 §8.4). */
export function isClientRedirectUri(
  client: Pick<ClientRecord, 'redirectUris' | 'secretDigest'>,
  requested: string,
): boolean {
  return isRegisteredRedirectUri(client.redirectUris, requested, isPublicClient(client) ? 'native' : 'web');
}
