// Where a .cpuprofile's time went: `node bench/lib/profile-summary.mjs <file> [top] [skip seconds]`.
// Samples in the first `skip` seconds (startup, setup, warm-up) are left out.
// Prints the functions with the most self time, then the total (self + callees) time of each
// source file group: Gatehouse's own code, Fastify, Kysely, better-sqlite3, jose, node: internals.
import { readFileSync } from 'node:fs';

const [file, topArg = '25', skipArg = '0'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// Self time per node from the samples and their time deltas.
const selfUs = new Map();
let elapsedUs = 0;
profile.samples.forEach((id, i) => {
  elapsedUs += profile.timeDeltas[i] ?? 0;
  if (elapsedUs >= Number(skipArg) * 1e6) selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);

const nameOf = (n) => `${n.callFrame.functionName || '(anonymous)'} ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
function shortUrl(url) {
  return url.replace(/^file:\/\/.*?\/node_modules\//, '').replace(/^file:\/\/.*?\/packages\//, '').replace(/^node:/, 'node:');
}
function groupOf(n) {
  const url = n.callFrame.url;
  if (!url) return n.callFrame.functionName.startsWith('(') ? n.callFrame.functionName : '(native)';
  for (const g of ['kysely', 'better-sqlite3', 'fastify', 'find-my-way', 'pino', 'jose', 'ajv', 'light-my-request', 'fast-json-stringify', 'avvio']) {
    if (url.includes(`/node_modules/${g}/`) || url.includes(`/node_modules/@fastify/`) && g === 'fastify') return g;
  }
  if (url.includes('/packages/server/')) return 'gatehouse server';
  if (url.includes('/packages/contract/')) return 'gatehouse contract';
  if (url.startsWith('node:')) return 'node: internals';
  return 'other';
}

const self = new Map();
for (const [id, us] of selfUs) {
  const key = nameOf(byId.get(id));
  self.set(key, (self.get(key) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / totalUs).toFixed(1).padStart(5)}%`;
console.log(`${file}: ${(totalUs / 1e6).toFixed(2)} s sampled`);
console.log('\nself time, top functions:');
for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg))) console.log(`${pct(us)}  ${name}`);

// Self time by group, where a native/builtin frame is charged to the nearest caller with a group.
const groups = new Map();
for (const [id, us] of selfUs) {
  let n = byId.get(id);
  let g = groupOf(n);
  while ((g === '(native)' || g === 'node: internals') && parent.has(n.id)) {
    const up = byId.get(parent.get(n.id));
    const ug = groupOf(up);
    if (ug === '(root)' || ug === '(program)') break;
    if (ug !== '(native)' && ug !== 'node: internals') {
      g = `${ug} → ${g}`;
      break;
    }
    n = up;
  }
  groups.set(g, (groups.get(g) ?? 0) + us);
}
console.log('\nself time by where it is spent (native and node: time charged to the nearest library caller):');
for (const [g, us] of [...groups].sort((a, b) => b[1] - a[1])) console.log(`${pct(us)}  ${g}`);
