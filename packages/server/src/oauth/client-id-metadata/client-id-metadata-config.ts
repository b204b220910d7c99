import { readFileSync } from 'node:fs';
import ipaddr from 'ipaddr.js';
import { CLIENT_ID_METADATA_MODES, type ClientIdMetadataPolicy } from './client-id-metadata.js';

/**
 * The client ID metadata document settings from the environment (docs/agents.md):
 * - CLIENT_ID_METADATA_DOCUMENTS: off (default), allowlist or open;
 * - CLIENT_ID_METADATA_ALLOW_HOSTS / _DENY_HOSTS: comma-separated host names, `*.example.com` allowed;
 * - CLIENT_ID_METADATA_CACHE_MIN / _CACHE_MAX / _STALE: seconds (the floor and ceiling of the
 *   document's own caching headers, and how long a stale one is still used while fetched again);
 * - CLIENT_ID_METADATA_MAX_BYTES, CLIENT_ID_METADATA_TIMEOUT_MS: the fetch's limits;
 * - CLIENT_ID_METADATA_ALLOW_ADDRESSES: non-public CIDRs the documents may come from (a private
 *   deployment); none by default;
 * - CLIENT_ID_METADATA_CA_FILE: a PEM file of CAs trusted instead of Node's.
 * A wrong value stops the server at start, naming the variable.
 */
export function clientIdMetadataFromEnv(env: NodeJS.ProcessEnv): Partial<ClientIdMetadataPolicy> {
  const mode = CLIENT_ID_METADATA_MODES.find((m) => m === (env.CLIENT_ID_METADATA_DOCUMENTS || 'off'));
  if (mode === undefined)
    throw new Error(
      `CLIENT_ID_METADATA_DOCUMENTS is off, allowlist or open, got ${JSON.stringify(env.CLIENT_ID_METADATA_DOCUMENTS)}`,
    );
  const policy: Record<string, unknown> = {
    mode,
    allowHosts: list(env.CLIENT_ID_METADATA_ALLOW_HOSTS).map((h) => h.toLowerCase()),
    denyHosts: list(env.CLIENT_ID_METADATA_DENY_HOSTS).map((h) => h.toLowerCase()),
    allowAddresses: list(env.CLIENT_ID_METADATA_ALLOW_ADDRESSES).map(checkedRange),
  };
  const numbers = {
    cacheFloorSeconds: 'CLIENT_ID_METADATA_CACHE_MIN',
    cacheCeilingSeconds: 'CLIENT_ID_METADATA_CACHE_MAX',
    staleSeconds: 'CLIENT_ID_METADATA_STALE',
    maxBytes: 'CLIENT_ID_METADATA_MAX_BYTES',
    timeoutMs: 'CLIENT_ID_METADATA_TIMEOUT_MS',
  } as const;
  for (const [key, variable] of Object.entries(numbers)) {
    const value = env[variable];
    if (value === undefined || value === '') continue;
    if (!/^\d{1,9}$/.test(value)) throw new Error(`${variable} must be a whole number, got ${JSON.stringify(value)}`);
    policy[key] = Number(value);
  }
  const [floor, ceiling] = [policy['cacheFloorSeconds'], policy['cacheCeilingSeconds']] as (number | undefined)[];
  if ((floor ?? 0) > (ceiling ?? Infinity))
    throw new Error('CLIENT_ID_METADATA_CACHE_MIN must not be more than CLIENT_ID_METADATA_CACHE_MAX');
  if (env.CLIENT_ID_METADATA_CA_FILE) policy.ca = readFileSync(env.CLIENT_ID_METADATA_CA_FILE, 'utf8');
  return policy;
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function checkedRange(cidr: string): string {
  const full = cidr.includes('/') ? cidr : `${cidr}/${cidr.includes(':') ? 128 : 32}`;
  try {
    ipaddr.parseCIDR(full);
  } catch {
    throw new Error(`CLIENT_ID_METADATA_ALLOW_ADDRESSES: ${JSON.stringify(cidr)} is not an address or CIDR range`);
  }
  return full;
}
