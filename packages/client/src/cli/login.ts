import { listenOnLoopback } from '../node/loopback.js';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import { cliPaths, managerFor, writeProfile, type LoginProfile } from './profile.js';
import type { CliIo } from './run.js';

interface LoginOptions {
  readonly issuer: string;
  readonly clientId: string;
  readonly scope?: string | undefined;
  /** 0 (the default): a free port, which a server following RFC 8252 §7.3 (Gatehouse does) accepts. */
  readonly port: number;
  readonly timeoutSeconds: number;
}

/**
 * `gatehouse-login login`: the authorization code flow of a native app. Listens on the loopback
 * interface, prints the authorization URL for the user to open, waits for the redirect carrying
 * our `state`, exchanges the code with the PKCE verifier, stores the tokens encrypted.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8252#section-4.1 RFC 8252 §4.1
 */
export async function login(options: LoginOptions, io: CliIo): Promise<ExitCode> {
  const paths = cliPaths(io.env);
  const listener = await listenOnLoopback({ port: options.port });
  try {
    const profile: LoginProfile = {
      issuer: options.issuer,
      client_id: options.clientId,
      redirect_uri: listener.redirectUri,
      ...(options.scope === undefined ? {} : { scope: options.scope }),
    };
    const { manager } = await managerFor(profile, paths, io);
    const { authorizationUrl, state } = await manager.startAuthorization();
    io.err('Open this URL in a browser to sign in:');
    io.out(authorizationUrl);
    io.err(`Waiting for the sign-in to come back to ${listener.redirectUri} ...`);
    const callback = await listener.waitForCallback(
      (url) => url.searchParams.get('state') === state,
      options.timeoutSeconds * 1000,
    );
    await manager.completeAuthorization(callback);
    await writeProfile(paths, profile);
    io.err(
      `Logged in to ${options.issuer} as client ${options.clientId}; the tokens are stored encrypted in ${paths.tokens}.`,
    );
    return EXIT_CODES.ok;
  } finally {
    await listener.close();
  }
}
