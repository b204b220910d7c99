import { usePasswordHashCost } from '../src/users/passwords.js';

/**
 * Test passwords are hashed at scrypt N = 2^10 (1 MiB, about 2 ms), not the default 2^15 (32 MiB,
 * about 90 ms here): a suite signs in some five hundred times. The hashes name their parameters, so
 * what is checked is the same; users.test.ts checks the default. The test runner
 * (scripts/test-tiers.mjs) sets PASSWORD_HASH_COST to this for the processes tests spawn.
 */
export const TEST_PASSWORD_HASH_COST = 10;

/** For tests that hash passwords without starting a server (startTestServer passes the cost itself). */
export function hashTestPasswordsCheaply(): void {
  usePasswordHashCost(TEST_PASSWORD_HASH_COST);
}
