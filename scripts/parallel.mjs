#!/usr/bin/env node
// `node scripts/parallel.mjs typecheck lint`: runs the named npm scripts at the same time, prints each
// one's output whole when it ends (with its wall time), and exits non-zero if any of them failed.
// For the static checks only: each is one single-threaded process, so two of them fit on 2 cores.
// The test tiers have their own pool (scripts/test-tiers.mjs --jobs).
import { spawn } from 'node:child_process';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(script) {
  return new Promise((done) => {
    const started = Date.now();
    const child = spawn(NPM, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const status = code === 0 ? 'ok' : `FAILED (exit ${code ?? signal})`;
      process.stdout.write(`\n=== npm run ${script}: ${seconds} s, ${status} ===\n${Buffer.concat(chunks).toString()}`);
      done(code === 0 ? 0 : 1);
    });
  });
}

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node scripts/parallel.mjs <npm script> ...');
  process.exitCode = 2;
} else {
  const codes = await Promise.all(scripts.map(run));
  process.exitCode = Math.max(...codes);
}
