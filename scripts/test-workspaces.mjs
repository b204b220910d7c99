// `npm test`'s last step: every workspace's suite, the server's beside the others. The server's suite
// is most of the time (about 8 of 10 minutes on a 2-core machine) and runs one file at a time, so the
// contract, resource-server and client suites run meanwhile, one after another, their output held and
// printed whole when each ends (no interleaved lines). GATEHOUSE_TEST_SERIAL=1 runs them one by one.
import { spawn } from 'node:child_process';

const SERVER = 'packages/server';
const OTHERS = ['packages/contract', 'packages/resource-server', 'packages/client'];

/** `npm run test -w <workspace>`; resolves with its exit code, its output streamed or held. */
function run(workspace, hold) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', 'test', '--silent', '-w', workspace], {
      stdio: ['ignore', hold ? 'pipe' : 'inherit', hold ? 'pipe' : 'inherit'],
    });
    const held = [];
    if (hold) {
      child.stdout.on('data', (chunk) => held.push(chunk));
      child.stderr.on('data', (chunk) => held.push(chunk));
    }
    child.on('close', (code, signal) => {
      if (hold) process.stdout.write(Buffer.concat(held));
      const status = code ?? 1;
      process.stdout.write(`\n# ${workspace}: ${status === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`}\n`);
      resolve(status);
    });
  });
}

async function inTurn(workspaces, hold) {
  const codes = [];
  for (const workspace of workspaces) codes.push(await run(workspace, hold));
  return codes;
}

const serial = process.env.GATEHOUSE_TEST_SERIAL === '1';
const codes = serial
  ? await inTurn([OTHERS[0], SERVER, ...OTHERS.slice(1)], false)
  : (await Promise.all([run(SERVER, false), inTurn(OTHERS, true)])).flat();
process.exitCode = codes.every((code) => code === 0) ? 0 : 1;
