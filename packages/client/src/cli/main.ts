#!/usr/bin/env node
import { runLoginCli } from './run.js';

process.exitCode = await runLoginCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
});
