import type { SettingsRepository } from '../../store/settings-repository.js';

const ISSUER_SETTING = 'issuer';

/**
 * The issuer identifier a server runs with, recorded at its start, so that a command run beside it
 * (`gatehouse grants issue` in a second terminal, without ISSUER or PORT) mints tokens this server
 * accepts: the issuer is the `iss` and `aud` of every access token (RFC 9068 §2.2).
 */
export async function recordServedIssuer(store: SettingsRepository, issuer: string, now: number): Promise<void> {
  if ((await store.findSetting(ISSUER_SETTING)) !== issuer) await store.putSetting(ISSUER_SETTING, issuer, now);
}

/** The issuer the server last started with; undefined before any server has run on this store. */
export function servedIssuer(store: SettingsRepository): Promise<string | undefined> {
  return store.findSetting(ISSUER_SETTING);
}
