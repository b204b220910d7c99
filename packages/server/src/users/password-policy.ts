import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

/**
 * The one policy of a password a person chooses (a reset, a sign-up, an invitation, the account
 * page): NIST SP 800-63B §3.1.1.2. At least 8 characters and up to 1024 (the verifier "SHALL allow
 * at least 64"), every printable character and space allowed, no composition rule (no "one digit,
 * one symbol"), and checked against values known to be common or breached: the lists of
 * @zxcvbn-ts/language-common (common and leaked passwords, diceware words), with keyboard patterns,
 * sequences, repeats, dates and l33t spellings of them, offline, never a network call.
 */
export const PASSWORD_LENGTH = { min: 8, max: 1024 } as const;

/**
 * A password guessed in fewer than 10^6 tries (zxcvbn's score under 2: "too guessable, risky
 * password", an online attack's reach) is one of the listed values or a small variation of one.
 */
const MIN_SCORE = 2;

/** Why a chosen password is refused: the reason a page names. */
export type PasswordRefusal = 'too_short' | 'too_long' | 'too_common';

let estimator: Promise<ZxcvbnFactory> | undefined;

/**
 * Loaded and built on first use: loading the lists takes some 100 ms, and their strings some 3 MB of
 * the heap (2026-11-30), which a server that sets no password never pays.
 */
function strengthEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(
    ([{ ZxcvbnFactory }, { adjacencyGraphs, dictionary }]) =>
      new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs }),
    (error: unknown) => {
      estimator = undefined;
      throw error;
    },
  );
  return estimator;
}

/**
 * Why `password` is refused as a new password, or undefined when it is accepted. `context` is what
 * the person's own account says (the username, the e-mail address, the name): a password made of
 * them is refused too (§3.1.1.2: "context-specific words, such as the name of the service, the
 * username").
 */
export async function passwordRefusal(
  password: string,
  context: readonly string[] = [],
): Promise<PasswordRefusal | undefined> {
  // Counted in code points, as a person counts characters (§3.1.1.2: each Unicode code point is one).
  const length = [...password].length;
  if (length < PASSWORD_LENGTH.min) return 'too_short';
  if (length > PASSWORD_LENGTH.max) return 'too_long';
  // zxcvbn's cost grows with the length; past 128 characters a password is no listed value.
  if (length > 128) return undefined;
  const inputs = ['gatehouse', ...context.filter((c) => c !== '').flatMap((c) => [c, ...c.split(/[@.\s_-]+/)])];
  const { score } = await (await strengthEstimator()).checkAsync(password.normalize('NFC'), inputs);
  return score < MIN_SCORE ? 'too_common' : undefined;
}
