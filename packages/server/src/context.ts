import type { OAuthServices } from './oauth/services.js';

/**
 * What the endpoints need, passed to them explicitly. Today it is exactly the authorization
 * server's services; the REST API and the authorization pages read the parts they use.
 */
export type ServerContext = OAuthServices;
