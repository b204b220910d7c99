import { managerFor, type LoginProfile } from './profile.js';
import type { CliIo } from './run.js';

/**
 * `gatehouse-login login --device`: the device authorization grant (RFC 8628). Prints where to go
 * and the code to type (and the URL with the code in it, §3.3.1), then polls the token endpoint at
 * the server's interval, slower after each slow_down (§3.5), until the user has decided.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8628#section-3.3 RFC 8628 §3.3
 */
export async function signInOnDevice(
  base: LoginProfile,
  paths: Parameters<typeof managerFor>[1],
  io: CliIo,
): Promise<LoginProfile> {
  const profile: LoginProfile = { ...base, device: true };
  const { manager } = await managerFor(profile, paths, io);
  const authorization = await manager.startDeviceAuthorization();
  io.err(`On any device with a browser, open ${authorization.verification_uri}`);
  io.err(`and enter the code: ${authorization.user_code}`);
  if (authorization.verification_uri_complete !== undefined) {
    io.err('Or open this URL, which has the code in it:');
    io.out(authorization.verification_uri_complete);
  } else io.out(authorization.verification_uri);
  io.err(`Waiting for the sign-in (the code expires in ${Math.round(authorization.expires_in / 60)} minutes) ...`);
  await manager.completeDeviceAuthorization(authorization, io.sleep === undefined ? {} : { sleep: io.sleep });
  return profile;
}
