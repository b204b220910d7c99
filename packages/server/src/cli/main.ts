#!/usr/bin/env node
import { runCli } from './run.js';

process.exitCode = await runCli(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  errIsTerminal: process.stderr.isTTY,
});
