// What one run of the node test runner reported, read from its TAP (scripts/test-tiers.mjs has every
// run write TAP to a file, whatever its reporter on stdout): the closing counts, the top-level tests
// finished so far (for progress lines while it runs), every test or suite skipped with its reason,
// and the failing tests' blocks. Node's own `# skipped` counts skipped tests only: a suite skipped
// whole (`describe(…, { skip })`, as the PostgreSQL cluster suites do without their tools) is a
// `# SKIP` line of its own and counts nowhere, so skips are counted here from those lines.

/** The node test runner's closing counts ("# pass N"). */
export const COUNTS = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo'];
const COUNT_LINE = new RegExp(`^# (${COUNTS.join('|')}) (\\d+)$`);

/** `ok 3 - name # SKIP reason`, at any depth; the directive is TAP's (`# SKIP`, `# TODO`). */
const RESULT_LINE = /^(\s*)(not )?ok \d+ - (.*?)(?: # (SKIP|TODO)\b ?(.*))?$/;

/** Lines of one failure block kept for the closing list; the whole block is in the run's output. */
const FAILURE_LINES = 40;

/**
 * @typedef {{ name: string, reason: string, suite: boolean }} Skip
 * @typedef {{
 *   counts: Record<string, number> | undefined,
 *   finished: { pass: number, fail: number },
 *   lastFinished: string | undefined,
 *   skips: Skip[],
 *   failures: string[][],
 * }} TapReport
 */

/**
 * Reads a run's TAP (whole or so far). `counts` is undefined until the closing lines are there.
 * @param {string} text
 * @returns {TapReport}
 */
export function readTap(text) {
  /** @type {TapReport} */
  const report = {
    counts: undefined,
    finished: { pass: 0, fail: 0 },
    lastFinished: undefined,
    skips: [],
    failures: [],
  };
  /** The result line whose YAML block is being read: a skip (is it a suite?) or a failure. */
  let open;
  for (const line of text.split('\n')) {
    if (open !== undefined) {
      if (open.failure) open.lines.push(line);
      if (open.skip && line.trim() === "type: 'suite'") open.skip.suite = true;
      if (line.trim() === '...' && line.length - line.trimStart().length === open.indent + 2) {
        if (open.failure && !open.lines.some((l) => l.includes("failureType: 'subtestsFailed'")))
          report.failures.push(open.lines.slice(0, FAILURE_LINES));
        open = undefined;
      }
      continue;
    }
    const count = COUNT_LINE.exec(line);
    if (count) (report.counts ??= Object.fromEntries(COUNTS.map((c) => [c, 0])))[count[1]] = Number(count[2]);
    const result = RESULT_LINE.exec(line);
    if (!result) continue;
    const [, indent, not, name, directive, reason] = result;
    if (indent === '') {
      report.finished[not ? 'fail' : 'pass'] += 1;
      report.lastFinished = line;
    }
    open = { indent: indent.length, failure: Boolean(not), lines: [line], skip: undefined };
    if (directive === 'SKIP') {
      open.skip = { name, reason: reason ?? '', suite: false };
      report.skips.push(open.skip);
    }
  }
  return report;
}
