/**
 * The host list of a multi-host DATABASE_URL, as libpq writes it:
 * `postgres://user@h1:5432,h2:5433/db?target_session_attrs=read-write`. node-postgres (and
 * pg-connection-string) read one host only, so the URL is split here into one single-host URL per
 * host, each then parsed by node-postgres as usual; only the authority's host list is read here.
 */
export interface HostList {
  /** `host:port` as written, for messages. */
  readonly hosts: readonly string[];
  /** One URL per host, without `target_session_attrs`. */
  readonly urls: readonly string[];
  /** `target_session_attrs=read-write` (or `primary`): only a host whose transactions are writable will do. */
  readonly readWrite: boolean;
}

const URL_PARTS = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/;

export function parseHostList(connectionString: string): HostList {
  const parts = URL_PARTS.exec(connectionString);
  if (!parts) return { hosts: ['?'], urls: [connectionString], readWrite: false };
  const [, scheme, userinfo, hostList = '', path = '', query = ''] = parts;
  const params = new URLSearchParams(query.slice(1));
  const attrs = params.get('target_session_attrs') ?? 'any';
  if (!['any', 'read-write', 'primary'].includes(attrs))
    throw new Error(`DATABASE_URL: target_session_attrs must be any, read-write or primary (got ${attrs})`);
  let rest = `${path}${query}`;
  if (params.has('target_session_attrs')) {
    params.delete('target_session_attrs');
    rest = `${path}${params.size > 0 ? `?${params.toString()}` : ''}`;
  }
  const hosts = hostList.split(',');
  if (hosts.some((host) => host === '') && hosts.length > 1)
    throw new Error('DATABASE_URL: an empty host in the host list');
  return {
    hosts,
    urls: hosts.map((host) => `${scheme}${userinfo === undefined ? '' : `${userinfo}@`}${host}${rest}`),
    readWrite: attrs !== 'any',
  };
}
