/**
 * What the server tells the console about itself, in index.html's `<meta name="gatehouse-console">`
 * (server/src/console/): one source for the issuer, the console's client and what it asks for.
 */
export interface ConsoleConfig {
  readonly issuer: string;
  readonly clientId: string;
  readonly scope: string;
  /** The API its tokens are for (RFC 8707 `resource`), when the server names one. */
  readonly resource?: string;
  /** `<issuer>/console`: where the console's routes are. */
  readonly home: string;
  readonly redirectUri: string;
  readonly postLogoutRedirectUri: string;
}

export function readConfig(doc: Document): ConsoleConfig {
  const content = doc.querySelector('meta[name="gatehouse-console"]')?.getAttribute('content');
  if (content == null) throw new Error('index.html carries no gatehouse-console configuration');
  const raw = JSON.parse(content) as { issuer: string; client_id: string; scope: string; resource?: string };
  const home = `${raw.issuer}/console`;
  return {
    issuer: raw.issuer,
    clientId: raw.client_id,
    scope: raw.scope,
    ...(raw.resource === undefined ? {} : { resource: raw.resource }),
    home,
    redirectUri: `${home}/callback`,
    postLogoutRedirectUri: home,
  };
}
