import { readFileSync } from 'node:fs';
import type { Actor, AuditTrail } from '../audit/audit.js';
import type { KeyEncryption } from '../oauth/keys/index.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import type { Repository } from '../store/repository.js';
import { describeProvider, putProvider, type UpstreamProviderInput } from './providers.js';

/**
 * The operator's changes to the upstream providers, one path for the CLI, the config file read by
 * `serve` (UPSTREAMS_FILE) and the admin API: each change stored and audited with its actor.
 */

/** One entry of an upstreams file: a provider, its secret given inline or by an environment variable. */
export type UpstreamFileEntry = UpstreamProviderInput & { readonly client_secret_env?: string };

/** Reads and checks an upstreams file: `{ "upstreams": [ … ] }`, secrets resolved from `env`. */
export function readUpstreamsFile(path: string, env: NodeJS.ProcessEnv): UpstreamProviderInput[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new OperatorInputError(`${path}: not a readable JSON file (${(error as Error).message})`);
  }
  const list = (parsed as { upstreams?: unknown }).upstreams;
  if (!Array.isArray(list)) throw new OperatorInputError(`${path}: expected {"upstreams": [ … ]}`);
  return (list as UpstreamFileEntry[]).map((entry) => {
    if (entry.client_secret_env === undefined) return entry;
    const secret = env[entry.client_secret_env];
    if (secret === undefined || secret === '')
      throw new OperatorInputError(`${path}: upstream ${entry.id}: ${entry.client_secret_env} is not set`);
    const { client_secret_env: _ignored, ...rest } = entry;
    return { ...rest, client_secret: secret };
  });
}

/** Adds or replaces each provider; returns what an operator sees of them. */
export async function applyUpstreams(
  store: Repository,
  audit: AuditTrail,
  inputs: readonly UpstreamProviderInput[],
  now: number,
  encryption: KeyEncryption | undefined,
  actor: Actor,
): Promise<Record<string, unknown>[]> {
  const described: Record<string, unknown>[] = [];
  for (const input of inputs) {
    const provider = await putProvider(store, input, now, encryption);
    await audit.record({ event: 'upstream_provider_changed', at: now, reason: provider.id, actor: actor.id });
    described.push(describeProvider(provider, encryption !== undefined));
  }
  return described;
}

/** Removes a provider; its links stay (a provider configured again under the same issuer finds them). */
export async function removeUpstream(store: Repository, audit: AuditTrail, id: string, now: number, actor: Actor) {
  if (!(await store.removeUpstreamProvider(id))) throw new OperatorInputError(`no upstream '${id}'`, 'not_found');
  await audit.record({ event: 'upstream_provider_removed', at: now, reason: id, actor: actor.id });
}
