import { ReauthenticationRequired } from '../errors.js';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import { cliPaths, loginCommandOf, managerFor, readProfile, removeProfile } from './profile.js';
import type { CliIo } from './run.js';

/**
 * `gatehouse-login token`: prints a valid access token, refreshing first when it has less than
 * 30 s left. A refused refresh token (invalid_grant) is never retried: exit 3, log in again.
 */
export async function printToken(io: CliIo): Promise<ExitCode> {
  const paths = cliPaths(io.env);
  const profile = await readProfile(paths);
  if (profile === undefined) {
    io.err('Not logged in: run gatehouse-login login --issuer URL --client-id ID');
    return EXIT_CODES.reauthenticate;
  }
  const { manager } = await managerFor(profile, paths, io);
  try {
    io.out(await manager.getAccessToken());
    return EXIT_CODES.ok;
  } catch (error) {
    if (!(error instanceof ReauthenticationRequired)) throw error;
    const why =
      error.refusal === undefined
        ? 'no refresh token is stored'
        : `the server refused the refresh token: ${error.refusal.message}`;
    io.err(`The sign-in is no longer valid (${why}).`);
    io.err(`Log in again: ${loginCommandOf(profile)}`);
    return EXIT_CODES.reauthenticate;
  }
}

/** `gatehouse-login logout`: forgets the tokens, then revokes the refresh token at the server. */
export async function logout(io: CliIo): Promise<ExitCode> {
  const paths = cliPaths(io.env);
  const profile = await readProfile(paths);
  if (profile === undefined) {
    io.err('Not logged in.');
    return EXIT_CODES.ok;
  }
  const { manager, store } = await managerFor(profile, paths, io);
  try {
    await manager.logout();
  } catch (error) {
    io.err('The tokens were removed here, but the grant could not be revoked at the server:');
    throw error;
  } finally {
    await store.delete();
    await removeProfile(paths);
  }
  io.err(`Logged out of ${profile.issuer}; the grant was revoked.`);
  return EXIT_CODES.ok;
}
