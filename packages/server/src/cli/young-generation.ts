import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * The most each of V8's two young-generation semi-spaces may grow to in `gatehouse serve`, in MiB.
 * V8's own default on a 64-bit machine is 16 MiB: two of them are 32 MiB of resident memory once a
 * busy server has grown them, for garbage that dies within a request. At 8 MiB the sign-in and
 * code-flow scenarios peak some 17 MB lower (docs/performance.md, "Memory", 2026-11-30).
 */
export const SEMI_SPACE_MIB = 8;

const MIB = 1024 * 1024;

/** The V8 options that size the young generation: when an operator passes one, that choice stands. */
const YOUNG_GENERATION_OPTION = /^--(max|min)[-_]semi[-_]space[-_]size(=|$)|^--semi[-_]space[-_]growth[-_]factor(=|$)/;

/**
 * Keeps V8's young generation at `semiSpaceMiB` per semi-space at most, from inside the process.
 * `--max-semi-space-size` is read once, when V8 sets its heap up, so `v8.setFlagsFromString` cannot
 * change it in a running process (measured on Node.js 20: the new space still grew to 2 × 16 MiB),
 * and a re-exec with the option would leave a second process behind. What V8 does read at every
 * growth is `--semi-space-growth-factor` (a semi-space grows to min(its maximum, factor × its
 * size)), so after each garbage collection the factor is set to what takes the semi-space to the
 * cap at most, and to 1 (no growth) once it is there; a semi-space V8 shrank when the process was
 * idle grows back the same way. Returns what stops watching. Does nothing when `flags` (the
 * process's own options and NODE_OPTIONS) already size the young generation.
 */
export function capYoungGeneration(
  semiSpaceMiB: number = SEMI_SPACE_MIB,
  flags: readonly string[] = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)],
): () => void {
  if (flags.some((flag) => YOUNG_GENERATION_OPTION.test(flag))) return () => {};
  let factor = 2;
  const adjust = (): void => {
    const next = growthFactor(semiSpaceMiB);
    if (next === undefined || next === factor) return;
    setFlagsFromString(`--semi-space-growth-factor=${next}`);
    factor = next;
  };
  adjust();
  const observer = new PerformanceObserver(adjust);
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}

/**
 * The growth factor that takes the current semi-space to `semiSpaceMiB` at most: its capacity is
 * what the new space holds and can still hold (one semi-space: objects are allocated in one while
 * the other waits for the next scavenge), rounded up to whole MiB.
 */
export function growthFactor(semiSpaceMiB: number): number | undefined {
  const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  if (newSpace === undefined) return undefined;
  const semiSpace = Math.max(1, Math.ceil((newSpace.space_used_size + newSpace.space_available_size) / MIB));
  return Math.max(1, Math.floor(semiSpaceMiB / semiSpace));
}
