#!/usr/bin/env node
// The `gatehouse` command. A committed file, so that npm can link it at install time, before the
// `prepare` step has built dist/.
//
// `npx gatehouse …` runs this file under `sh -c`, and on SIGTERM or SIGINT npm signals that shell,
// which exits without passing the signal on (dash), leaving this process running with parent 1. So,
// started by npm, the process watches its parent, and when the wrapper is gone it signals itself
// SIGTERM, once: `serve` then stops as it does on any SIGTERM, finishing the requests in flight
// (signalled again and again, it would take the third signal as "stop at once").
if (process.env.npm_command !== undefined) {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGTERM');
  }, 250).unref();
}
await import('../dist/cli/main.js');
