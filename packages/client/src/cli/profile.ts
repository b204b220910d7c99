import { readFile, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isRecord } from '../errors.js';
import { FileTokenStore, writeFileAtomically } from '../node/file-token-store.js';
import { TokenManager } from '../token-manager.js';
import type { TokenStore } from '../token-store.js';
import type { CliIo } from './run.js';

/** What `login` remembers for `token` and `logout` (not secret; the tokens are in the encrypted file). */
export interface LoginProfile {
  readonly issuer: string;
  readonly client_id: string;
  readonly scope?: string;
  /** The loopback redirect URI of a browser sign-in; absent after `login --device`. */
  readonly redirect_uri?: string;
  /** Signed in with the device authorization grant (RFC 8628). */
  readonly device?: boolean;
}

interface CliPaths {
  readonly dir: string;
  readonly profile: string;
  readonly tokens: string;
  readonly key: string;
}

/** `$GATEHOUSE_CONFIG_DIR`, else `$XDG_CONFIG_HOME/gatehouse`, else `~/.config/gatehouse`. */
export function cliPaths(env: CliIo['env']): CliPaths {
  const dir = env.GATEHOUSE_CONFIG_DIR || join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'gatehouse');
  return { dir, profile: join(dir, 'login.json'), tokens: join(dir, 'tokens.enc'), key: join(dir, 'token.key') };
}

export async function readProfile(paths: CliPaths): Promise<LoginProfile | undefined> {
  let text: string;
  try {
    text = await readFile(paths.profile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const value: unknown = JSON.parse(text);
  if (
    !isRecord(value) ||
    typeof value.issuer !== 'string' ||
    typeof value.client_id !== 'string' ||
    (typeof value.redirect_uri !== 'string' && value.device !== true)
  ) {
    throw new Error(`${paths.profile} is not a gatehouse-login profile; remove it and log in again`);
  }
  return value as unknown as LoginProfile;
}

export async function writeProfile(paths: CliPaths, profile: LoginProfile): Promise<void> {
  await writeFileAtomically(paths.profile, `${JSON.stringify(profile, null, 2)}\n`);
}

export async function removeProfile(paths: CliPaths): Promise<void> {
  await rm(paths.profile, { force: true });
}

/** The token manager of a profile, over the encrypted file. */
export async function managerFor(
  profile: LoginProfile,
  paths: CliPaths,
  io: CliIo,
): Promise<{ manager: TokenManager; store: FileTokenStore }> {
  const store = await FileTokenStore.open({ path: paths.tokens, keyFile: paths.key, env: io.env });
  return { manager: managerOver(profile, store, io), store };
}

/** The token manager of a profile over any store. */
export function managerOver(profile: LoginProfile, store: TokenStore, io: CliIo): TokenManager {
  return new TokenManager({
    issuer: profile.issuer,
    clientId: profile.client_id,
    // A device has no redirect URI; its manager never starts a browser sign-in.
    redirectUri: profile.redirect_uri,
    scope: profile.scope,
    store,
    ...(io.fetch ? { fetch: io.fetch } : {}),
    ...(io.retry ? { retry: io.retry } : {}),
  });
}

/** The command that logs in again with the same settings. */
export function loginCommandOf(profile: LoginProfile): string {
  const scope = profile.scope === undefined ? '' : ` --scope '${profile.scope}'`;
  const device = profile.device === true ? ' --device' : '';
  // No --port: a server that follows RFC 8252 §7.3 (Gatehouse does) accepts the loopback redirect on any port.
  return `gatehouse-login login --issuer ${profile.issuer} --client-id ${profile.client_id}${scope}${device}`;
}
