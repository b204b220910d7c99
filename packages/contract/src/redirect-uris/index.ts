export {
  hasOnlyUriCharacters,
  isLoopbackIpRedirectUri,
  isRegisteredPostLogoutRedirectUri,
  isRegisteredRedirectUri,
  redirectUriRefusal,
  redirectUriRefusalMessage,
  URI_CHARACTERS_RULE,
  type RedirectUriClientKind,
  type RedirectUriRefusal,
} from './redirect-uris.js';
export { isHttpsOrLoopbackHttp, isLoopbackAddress, isLoopbackHost, LOOPBACK_HTTP_RULE } from './loopback.js';
