import { setTimeout as sleep } from 'node:timers/promises';

/** How often a condition is looked at again, ms: a poll, not a wait for something to have happened. */
const POLL_MS = 20;

/**
 * Resolves once `condition` holds (looked at every POLL_MS); fails naming `what` if it has not
 * within `timeoutMs`, a bound for a condition that would otherwise never come, not a time the test
 * relies on. `what` may be a function, for a message that says what was seen meanwhile.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string | (() => string),
  timeoutMs = 30_000,
): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await condition()); await sleep(POLL_MS))
    if (Date.now() > deadline)
      throw new Error(`not within ${timeoutMs} ms: ${typeof what === 'string' ? what : what()}`);
}
