// Where a server's CPU went, by library, from `perf record`: `node bench/lib/perf-summary.mjs
// <perf.data> <CPU µs per request> [<peer perf.data> <peer CPU µs per request>]`.
//
// The V8 profile (`--profile`) charges native and kernel time to the nearest JavaScript caller;
// perf samples them where they are. Record a server at steady state with names for V8's compiled
// code, e.g. while `NODE_OPTIONS=--perf-basic-prof npm run bench -- --only introspect` measures it:
//   perf record -e cpu-clock -F 2000 -g -p <server pid> -o /tmp/gatehouse.data -- sleep 8
// (this kind of VM has no hardware counters; the software clock samples native and kernel code).
// Each group's share of the samples is scaled to the CPU per request the bench printed for that
// measurement, so two servers (Gatehouse and its floor, say) can be read side by side in µs.
// Needs Debian's linux-perf.
import { execFileSync } from 'node:child_process';

const [file, cpu, peerFile, peerCpu] = process.argv.slice(2);
if (file === undefined || !(Number(cpu) > 0) || (peerFile !== undefined && !(Number(peerCpu) > 0))) {
  console.error('usage: perf-summary.mjs <perf.data> <CPU µs per request> [<peer perf.data> <peer CPU µs per request>]');
  process.exit(2);
}

/** perf's samples per DSO and symbol, as percentages of the recording's. */
function samples(data) {
  const text = execFileSync('perf', ['report', '-i', data, '--no-children', '--sort', 'dso,sym', '--stdio', '-g', 'none'], {
    encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'],
  });
  const rows = [];
  for (const line of text.split('\n')) {
    const m = /^\s+([\d.]+)%\s+(\S+(?: tid \d+)?)\s+\[(.)\]\s+(.*)$/.exec(line);
    if (m) rows.push({ percent: Number(m[1]), dso: m[2], kernel: m[3] === 'k', symbol: m[4].trim() });
  }
  return rows;
}

const JS_GROUPS = [
  [/\/packages\/(server|contract)\//, "the server's own compiled JavaScript"],
  [/\/node_modules\/(fastify|@fastify|find-my-way|light-my-request|avvio)\//, 'Fastify and find-my-way'],
  [/\/node_modules\/(pino|prom-client)\//, 'pino and prom-client'],
  [/ node:/, "Node's own JavaScript (http, streams, timers)"],
  [/\/bench\/servers\//, "the server's own compiled JavaScript"],
];

function groupOf({ dso, kernel, symbol }) {
  if (kernel) return 'kernel (mostly the socket write)';
  if (dso.includes('better_sqlite3')) return 'SQLite';
  if (/^lib(c|stdc\+\+|m|gcc_s)[.-]/.test(dso)) return 'libc (malloc, memcpy)';
  if (dso.startsWith('[JIT]')) {
    for (const [pattern, name] of JS_GROUPS) if (pattern.test(symbol)) return name;
    return symbol.startsWith('JS:') ? 'other compiled JavaScript (Ajv, generated code)' : 'V8 stubs';
  }
  if (dso === 'node') {
    if (symbol.startsWith('Builtins_')) return 'V8 built-ins (property access, promises, strings)';
    if (/llhttp|^uv_|^uv__|node::/.test(symbol)) return "Node's C++ (llhttp, libuv, bindings)";
    if (/Heap|Scavenge|GC|Mark|Sweep|Evacuat/.test(symbol)) return 'garbage collector';
    return 'V8 runtime (objects, maps, lookups)';
  }
  return `other (${dso})`;
}

function microseconds(data, cpuPerRequest) {
  const groups = new Map();
  for (const row of samples(data)) {
    const group = groupOf(row);
    groups.set(group, (groups.get(group) ?? 0) + (row.percent * cpuPerRequest) / 100);
  }
  return groups;
}

const mine = microseconds(file, Number(cpu));
const peer = peerFile === undefined ? new Map() : microseconds(peerFile, Number(peerCpu));
const names = [...new Set([...mine.keys(), ...peer.keys()])].sort(
  (a, b) => (mine.get(b) ?? 0) - (peer.get(b) ?? 0) - ((mine.get(a) ?? 0) - (peer.get(a) ?? 0)),
);
const cell = (v) => (v ?? 0).toFixed(1).padStart(8);
console.log(`${'µs per request'.padEnd(52)}${'server'.padStart(8)}${peerFile ? `${'peer'.padStart(8)}${'diff'.padStart(8)}` : ''}`);
for (const name of names) {
  const a = mine.get(name);
  const b = peer.get(name);
  console.log(`${name.padEnd(52)}${cell(a)}${peerFile ? `${cell(b)}${cell((a ?? 0) - (b ?? 0))}` : ''}`);
}
const total = (m) => [...m.values()].reduce((s, v) => s + v, 0);
console.log(`${'total'.padEnd(52)}${cell(total(mine))}${peerFile ? `${cell(total(peer))}${cell(total(mine) - total(peer))}` : ''}`);
