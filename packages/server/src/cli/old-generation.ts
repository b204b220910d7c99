import { setFlagsFromString } from 'node:v8';

/**
 * How much V8's old generation may grow past what a mark-compact left live before the next one
 * starts, in percent, in `gatehouse serve`. V8 chooses the factor itself from its collector's speed
 * against the allocation rate, between 1.1 and 4 on a 64-bit machine with a large heap limit; under
 * the bench's refreshes on a quiet machine it reaches 4, so a heap of ~34 MB live grows its old
 * generation to ~134 MB of garbage-holding pages before collecting, and the process peaked at 242 MB
 * (refresh-traced) and 222 MB (refresh-oidc). At 100 (a factor of 2) the old generation stays under
 * about twice its live size (docs/performance.md, "Memory", 2026-11-30).
 */
export const HEAP_GROWING_PERCENT = 100;

/** The V8 option that sets the old generation's growth: when an operator passes it, that choice stands. */
const OLD_GENERATION_OPTION = /^--heap[-_]growing[-_]percent(=|$)/;

/**
 * Sets V8's `--heap-growing-percent` to `percent` from inside the process. V8 reads it each time a
 * mark-compact recomputes the old generation's limit (the limit becomes (1 + percent / 100) × the
 * live size, in place of V8's own factor), so setting it at run time takes effect from the next
 * full collection on. Node.js refuses the option in NODE_OPTIONS, so an operator passes it to `node`
 * itself (`node --heap-growing-percent=0 …/main.js serve` gives V8 its own choice back); when
 * `flags` (the process's own options) carry it, nothing is set. Returns whether it set the option.
 */
export function limitOldGenerationGrowth(
  percent: number = HEAP_GROWING_PERCENT,
  flags: readonly string[] = process.execArgv,
): boolean {
  if (flags.some((flag) => OLD_GENERATION_OPTION.test(flag))) return false;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  return true;
}
