/** The exit codes of gatehouse-login, documented in docs/client-sdk.md. */
export const EXIT_CODES = {
  ok: 0,
  /** Anything else went wrong; stderr says what. */
  error: 1,
  usage: 2,
  /** invalid_grant (or never logged in): log in again. */
  reauthenticate: 3,
  /** invalid_client / unauthorized_client: the client's registration or id is wrong. */
  configuration: 4,
  /** The server could not be reached, or stayed unavailable, after the retries. */
  unreachable: 5,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];
