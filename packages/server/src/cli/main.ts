#!/usr/bin/env node
import { capYoungGeneration } from './young-generation.js';

// Before the server's modules are loaded: the young generation grows from the start (./young-generation.ts).
if (process.argv[2] === 'serve') capYoungGeneration();
const { runCli } = await import('./run.js');

process.exitCode = await runCli(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  errIsTerminal: process.stderr.isTTY,
});
