import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { runNodeScript } from './_cli.js';
import { freshDatabase } from './_dialects.js';
import { GATEHOUSE_BIN, spawnServer } from './_processes.js';
import { SHIPPED_OPENAPI } from './_server.js';
import { logFormatFrom, prettyLine } from '../src/http/log-format.js';

/** The escape character of terminal colors. */
const ESC = String.fromCharCode(27);

/** The lines a server process wrote about requests. */
const requestLines = (output: string): string[] =>
  output.split('\n').filter((line) => line.includes('request completed') || line.includes('incoming request'));

const isJson = (line: string): boolean => {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
};

describe('the format of the console log (LOG_FORMAT)', () => {
  let database: { url: string; drop(): Promise<void> };
  const SECRET = `secret-${randomBytes(12).toString('base64url')}`;

  before(async () => {
    database = await freshDatabase('sqlite');
  });
  after(() => database?.drop());

  /**
   * What a spawned `gatehouse serve` (stdout a pipe, not a terminal) wrote when asked for one page with
   * a credential in its query. One process per environment: the tests that read the same form read
   * the output of the same run (a start costs seconds; nine were four kinds).
   */
  const runs = new Map<string, Promise<string>>();
  function run(env: Record<string, string>): Promise<string> {
    const key = JSON.stringify(Object.entries(env).sort());
    let output = runs.get(key);
    if (output === undefined) runs.set(key, (output = runOnce(env)));
    return output;
  }

  async function runOnce(env: Record<string, string>): Promise<string> {
    const server = await spawnServer({
      DATABASE_URL: database.url,
      OPENAPI_PATH: SHIPPED_OPENAPI,
      LOG_LEVEL: 'info',
      ...env,
    });
    try {
      assert.equal((await fetch(`${server.url}/jwks?access_token=${SECRET}&client_id=app`)).status, 200);
    } finally {
      await server.stop();
    }
    return server.output();
  }

  it('LOG_FORMAT=pretty: one readable line per event (time, level, message, request, status), not JSON, no colors off a terminal', async () => {
    const lines = requestLines(await run({ LOG_FORMAT: 'pretty' }));
    assert.ok(lines.length >= 1, 'the request is logged');
    for (const line of lines) {
      assert.equal(isJson(line), false, line);
      assert.match(line, /^\d\d:\d\d:\d\d\.\d{3} INFO {2}\[req-[\w-]+\] /, line);
      assert.ok(!line.includes(ESC), 'no escape codes in a pipe');
    }
    const completed = lines.find((l) => l.includes('request completed')) as string;
    assert.match(completed, /GET \/jwks\?access_token=\[redacted\]&client_id=app from 127\.0\.0\.1 → 200 \d+\.\d ms/);
  });

  it('without LOG_FORMAT, stdout not a terminal: JSON lines, as the JSON form is', async () => {
    const lines = requestLines(await run({}));
    assert.ok(lines.length >= 1);
    for (const line of lines) assert.equal((JSON.parse(line) as { level: number }).level, 30, line);
  });

  it('each request is one line at the default level: who asked for what, the status and the time together', async () => {
    for (const format of ['json', 'pretty']) {
      const lines = requestLines(await run({ LOG_FORMAT: format }));
      assert.equal(lines.length, 1, `${format}: ${lines.join('\n')}`);
    }
    const [line] = requestLines(await run({ LOG_FORMAT: 'json' }));
    const entry = JSON.parse(line as string) as {
      reqId: string;
      req: { method: string; url: string; remoteAddress: string };
      res: { statusCode: number };
      responseTime: number;
      msg: string;
    };
    assert.equal(entry.msg, 'request completed');
    assert.match(entry.reqId, /^req-/);
    assert.deepEqual(
      [entry.req.method, entry.req.url, entry.req.remoteAddress, entry.res.statusCode],
      ['GET', '/jwks?access_token=[redacted]&client_id=app', '127.0.0.1', 200],
    );
    assert.equal(typeof entry.responseTime, 'number');
  });

  it("LOG_LEVEL=debug also logs each request's arrival, for finding one that never ends", async () => {
    const lines = requestLines(await run({ LOG_FORMAT: 'json', LOG_LEVEL: 'debug' }));
    const arrived = lines
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .find((e) => e.msg === 'incoming request');
    assert.equal(arrived?.level, 20);
  });

  it('LOG_FORMAT=json: JSON lines', async () => {
    for (const line of requestLines(await run({ LOG_FORMAT: 'json' }))) assert.ok(isJson(line), line);
  });

  it('the redaction holds in both forms: the credential of the query is in neither', async () => {
    for (const format of ['pretty', 'json']) {
      const output = await run({ LOG_FORMAT: format });
      assert.ok(output.includes('[redacted]'), format);
      assert.ok(!output.includes(SECRET), `${format}: ${output}`);
    }
  });

  it('another LOG_FORMAT is refused at start, naming the variable', async () => {
    const refused = await runNodeScript(GATEHOUSE_BIN, ['serve'], {
      env: { DATABASE_URL: database.url, LOG_FORMAT: 'yaml', PORT: '0' },
    });
    assert.notEqual(refused.code, 0);
    assert.match(refused.err, /LOG_FORMAT must be json or pretty, got \\?"yaml\\?"/);
  });
});

describe('the readable form', () => {
  it('is the default on a terminal; JSON elsewhere; LOG_FORMAT decides when set', () => {
    assert.equal(logFormatFrom(undefined, true), 'pretty');
    assert.equal(logFormatFrom('', true), 'pretty');
    assert.equal(logFormatFrom(undefined, false), 'json');
    assert.equal(logFormatFrom('json', true), 'json');
    assert.equal(logFormatFrom('pretty', false), 'pretty');
  });

  it('shows the other fields as key=value, an error with its stack under the line, colors only when asked', () => {
    const json = JSON.stringify({
      level: 50,
      time: Date.UTC(2027, 0, 15, 8, 0, 0, 5),
      pid: 1,
      hostname: 'h',
      reqId: 'req-7',
      audit: { event: 'grant_revoked' },
      code: 'x',
      err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at f (a.js:1:1)' },
      msg: 'unexpected error',
    });
    const plain = prettyLine(json, false);
    assert.match(
      plain,
      /^\d\d:\d\d:\d\d\.005 ERROR \[req-7\] unexpected error audit=\{"event":"grant_revoked"\} code=x\n/,
    );
    assert.match(plain, /\n {4}Error: boom\n {8}at f \(a\.js:1:1\)\n$/);
    assert.doesNotMatch(plain, /pid|hostname/);
    assert.ok(prettyLine(json, true).includes(`${ESC}[31mERROR${ESC}[0m`), 'ERROR in red on a terminal');
    assert.equal(prettyLine('not json', false), 'not json\n');
  });
});
