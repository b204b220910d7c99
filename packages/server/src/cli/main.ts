#!/usr/bin/env node
import { limitOldGenerationGrowth } from './old-generation.js';
import { capYoungGeneration } from './young-generation.js';

// Before the server's modules are loaded: the heap grows from the start (./young-generation.ts, ./old-generation.ts).
if (process.argv[2] === 'serve') {
  capYoungGeneration();
  limitOldGenerationGrowth();
}
const { runCli } = await import('./run.js');

process.exitCode = await runCli(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  errIsTerminal: process.stderr.isTTY,
});
