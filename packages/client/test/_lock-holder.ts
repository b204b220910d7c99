/**
 * A process that takes a lock file and dies holding it (file-lock.test.ts): it prints `held`, then
 * exits without releasing, as a crash or a kill would leave it.
 */
import { withFileLock } from '@gatehouse/client/node';

const lockPath = process.argv[2];
if (lockPath === undefined) throw new Error('usage: _lock-holder.ts <lock path>');
await withFileLock(lockPath, async () => {
  process.stdout.write('held\n');
  process.exit(0); // no finally block runs: the lock file stays
});
