import { ClientConfigurationError, OAuthResponseError } from '../errors.js';
import type { FetchFunction } from '../http.js';
import type { LandingPage } from '../node/landing-page.js';
import { listenOnLoopback } from '../node/loopback.js';
import type { StoredTokens } from '../token-store.js';
import { MemoryTokenStore } from '../token-store.js';
import { signInOnDevice } from './device-login.js';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import { cliPaths, managerFor, managerOver, readProfile, writeProfile, type LoginProfile } from './profile.js';
import type { CliIo } from './run.js';

export interface LoginOptions {
  readonly issuer: string;
  readonly clientId: string;
  readonly scope?: string | undefined;
  /** 0 (the default): a free port, which a server following RFC 8252 §7.3 (Gatehouse does) accepts. */
  readonly port: number;
  readonly timeoutSeconds: number;
  /** The device authorization grant (RFC 8628) instead of a browser on this machine. */
  readonly device: boolean;
}

type Paths = ReturnType<typeof cliPaths>;

/**
 * `gatehouse-login login`: signs in (in a browser on this machine, or with `--device` on any
 * device), stores the tokens encrypted, then revokes the grant of the sign-in it replaces, so that
 * logging in again never leaves a live grant behind at the server (RFC 7009).
 */
export async function login(options: LoginOptions, io: CliIo): Promise<ExitCode> {
  const paths = cliPaths(io.env);
  const previous = await previousSignIn(paths, io);
  const profile: LoginProfile = {
    issuer: options.issuer,
    client_id: options.clientId,
    ...(options.scope === undefined ? {} : { scope: options.scope }),
  };
  const signedIn = options.device
    ? await signInOnDevice(profile, paths, io)
    : await signInWithBrowser(profile, options, paths, io);
  await writeProfile(paths, signedIn);
  io.err(
    `Logged in to ${options.issuer} as client ${options.clientId}; the tokens are stored encrypted in ${paths.tokens}.`,
  );
  if (previous !== undefined) await revokePrevious(previous, io);
  return EXIT_CODES.ok;
}

/**
 * The authorization code flow of a native app (RFC 8252 §4.1): listens on the loopback interface,
 * prints the authorization URL, waits for the redirect carrying our `state`, exchanges the code
 * with the PKCE verifier, and only then answers the browser, with the truth: signed in, refused,
 * or failed.
 */
async function signInWithBrowser(
  base: LoginProfile,
  options: LoginOptions,
  paths: Paths,
  io: CliIo,
): Promise<LoginProfile> {
  const listener = await listenOnLoopback({ port: options.port });
  try {
    const profile: LoginProfile = { ...base, redirect_uri: listener.redirectUri };
    const { manager } = await managerFor(profile, paths, io);
    const { authorizationUrl, state } = await manager.startAuthorization();
    await checkAuthorizationRequest(authorizationUrl, profile, io.fetch ?? fetch);
    io.err('Open this URL in a browser to sign in:');
    io.out(authorizationUrl);
    io.err(`Waiting up to ${options.timeoutSeconds} s for the sign-in to come back to ${listener.redirectUri} ...`);
    const callback = await listener.waitForCallback(
      (url) => url.searchParams.get('state') === state,
      options.timeoutSeconds * 1000,
    );
    try {
      await manager.completeAuthorization(callback.url);
    } catch (error) {
      callback.answer(landingPageOf(error));
      throw error;
    }
    callback.answer({
      status: 200,
      ok: true,
      title: 'Signed in',
      text: 'You can close this window and return to the terminal.',
    });
    return profile;
  } finally {
    await listener.close();
  }
}

/**
 * Asks for the authorization request once, without following a redirect, before showing it. A
 * server that refuses the client or its redirect URI says so on its own page and never sends the
 * browser back (RFC 6749 §4.1.2.1), so the listener would wait for nothing until its timeout; it
 * answers that at once with a 4xx, where a request it can serve answers its sign-in page or a
 * redirect. Only the server's own page is fetched: no sign-in starts, and no code is issued.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8252#section-7.3 RFC 8252 §7.3 (loopback redirects)
 */
async function checkAuthorizationRequest(url: string, profile: LoginProfile, fetchFn: FetchFunction): Promise<void> {
  let status: number;
  try {
    const answer = await fetchFn(url, { redirect: 'manual' });
    status = answer.status;
    await answer.body?.cancel();
  } catch {
    return; // Unreachable now: the browser will show it, and the wait ends at its timeout.
  }
  if (status < 400 || status >= 500 || status === 429) return;
  throw new ClientConfigurationError(
    `${profile.issuer} refused the authorization request itself (HTTP ${status}), so the browser cannot come ` +
      `back to ${profile.redirect_uri}: the client '${profile.client_id}' is unknown there, or is not registered ` +
      'for a loopback redirect URI. gatehouse-login takes the sign-in on 127.0.0.1 (RFC 8252 §7.3): register ' +
      'the client with http://127.0.0.1/callback (any port then matches), or sign in with --device',
  );
}

/** The page for a sign-in that came back without tokens. */
function landingPageOf(error: unknown): LandingPage {
  // RFC 6749 §4.1.2.1: the user chose Deny on the consent page.
  if (error instanceof OAuthResponseError && error.error === 'access_denied')
    return {
      status: 403,
      ok: false,
      title: 'Sign-in refused',
      text: 'Access was denied, so gatehouse-login was not signed in. You can close this window.',
    };
  const reason = error instanceof Error ? error.message : String(error);
  return {
    status: 400,
    ok: false,
    title: 'Sign-in failed',
    text: `gatehouse-login could not complete the sign-in (${reason}). Return to the terminal for details.`,
  };
}

interface PreviousSignIn {
  readonly profile: LoginProfile;
  readonly tokens: StoredTokens;
}

async function previousSignIn(paths: Paths, io: CliIo): Promise<PreviousSignIn | undefined> {
  const profile = await readProfile(paths);
  if (profile === undefined) return undefined;
  const tokens = await (await managerFor(profile, paths, io)).manager.tokens();
  return tokens?.refreshToken === undefined ? undefined : { profile, tokens };
}

/**
 * Revokes the replaced sign-in's refresh token at its own server (RFC 7009 §2.1; at Gatehouse that
 * ends its grant). The new sign-in stands whatever happens; a failure is reported, not fatal.
 */
async function revokePrevious({ profile, tokens }: PreviousSignIn, io: CliIo): Promise<void> {
  try {
    await managerOver(profile, new MemoryTokenStore({ tokens }), io).logout();
    io.err(`The previous sign-in to ${profile.issuer} was revoked.`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    io.err(`The previous sign-in to ${profile.issuer} could not be revoked: ${reason}`);
  }
}
