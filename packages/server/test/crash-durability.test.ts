import assert from 'node:assert/strict';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, it, type TestContext } from 'node:test';
import { runCli } from '../src/cli/run.js';
import { DIALECTS, freshDatabase } from './_dialects.js';
import { spawnServer, type ServerProcess } from './_processes.js';
import { basicAuthorization, SHIPPED_OPENAPI } from './_server.js';

/**
 * Nothing answered is lost (DESIGN.md, "Nothing lost"): under refresh and REST load the built server
 * is killed with SIGKILL at random moments and restarted on the same database, again and again.
 * Afterwards, with a fresh server:
 * - the last refresh token of every chain answered with 200 works exactly once;
 * - every token that was rotated away (answered 200, then exchanged with a 200) is refused as past
 *   its rotation limit — its use was durable too;
 * - every record answered with 201 is there, as it was sent.
 * A request in flight at a kill may have been committed or not: its token is retried once the server
 * is back, and must then either work or be refused as past its rotation limit, never anything else.
 * SQLite matters most here (WAL, synchronous=FULL, group commit); PostgreSQL runs too.
 */
const ISSUER = 'http://gatehouse.test';
const CHAINS = 16;
const REST_WORKERS = 4;
const KILLS_UNDER_LOAD = 4;
const PAST_LIMIT = 'refresh token is past its rotation limit';

/** Why a request got no answer: never sent (refused connection), or sent and cut off (ambiguous). */
class NoAnswer extends Error {
  readonly sent: boolean;
  constructor(sent: boolean, cause: unknown) {
    super(sent ? 'no answer: the connection broke' : 'not sent: connection refused', { cause });
    this.sent = sent;
  }
}

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** A refresh-token chain: its live head, the tokens rotated away, and a token whose fate is unknown. */
interface Chain {
  head: string;
  readonly rotatedAway: string[];
  /** A token sent when the server died: maybe rotated (its new head lost to us), maybe not. */
  ambiguous: string | null;
  /** The chain ended: an ambiguous token turned out to be used, and presenting it revoked the family. */
  ended: boolean;
}

for (const dialect of DIALECTS)
  describe(`kill -9 under refresh and REST load, restart, nothing answered is lost [${dialect}]`, () => {
    let database: { url: string; drop(): Promise<void> };
    let env: Record<string, string>;
    let server: ServerProcess | undefined;
    let authorization: string;
    let stopped = false;

    after(async () => {
      stopped = true;
      await server?.stop();
      await database?.drop();
    });

    async function cli(...argv: string[]): Promise<Record<string, string>> {
      let out = '';
      let err = '';
      const code = await runCli(argv, env, { out: (t) => (out += t), err: (t) => (err += t) });
      assert.equal(code, 0, `gatehouse ${argv.join(' ')}: ${err}`);
      return JSON.parse(out) as Record<string, string>;
    }

    /** One request to the server of the moment; NoAnswer when there was none. */
    async function call(path: string, init: RequestInit): Promise<Answer> {
      const target = server;
      if (!target || target.child.exitCode !== null || target.child.signalCode !== null)
        throw new NoAnswer(false, 'down');
      let response: Response;
      try {
        response = await fetch(`${target.url}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
      } catch (error) {
        throw new NoAnswer((error as { cause?: { code?: string } }).cause?.code !== 'ECONNREFUSED', error);
      }
      try {
        const text = await response.text();
        return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
      } catch (error) {
        throw new NoAnswer(true, error);
      }
    }

    function refresh(token: string): Promise<Answer> {
      return call('/token', {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }).toString(),
      });
    }

    /**
     * Retries a request that got no answer until it gets one (the server may be restarting); once the
     * load is stopped with the server down, gives up, leaving it to the checks on a fresh server.
     */
    async function answered<T>(send: () => Promise<T>): Promise<T> {
      for (;;) {
        try {
          return await send();
        } catch (error) {
          if (!(error instanceof NoAnswer) || (stopped && server === undefined)) throw error;
          await sleep(25);
        }
      }
    }

    /**
     * Resolves an ambiguous token: presented again once answered, it either works (the rotation was
     * not committed: the chain goes on) or is past its rotation limit (it was: presenting it again is
     * a replay, which revokes the family, so the chain ends). Nothing else is acceptable.
     */
    async function resolveAmbiguous(chain: Chain, outcomes: { worked: number; used: number }): Promise<void> {
      const token = chain.ambiguous as string;
      const answer = await answered(() => refresh(token));
      if (answer.status === 200) {
        chain.rotatedAway.push(token);
        chain.head = answer.body.refresh_token as string;
        outcomes.worked += 1;
      } else {
        assert.equal(answer.status, 400, JSON.stringify(answer.body));
        assert.equal(
          answer.body.error_description,
          PAST_LIMIT,
          `an ambiguous token is either unused or used, never ${JSON.stringify(answer.body)}`,
        );
        chain.ended = true;
        outcomes.used += 1;
      }
      chain.ambiguous = null;
    }

    /**
     * One lane of refresh load: refreshes its chain's head over and over. A chain that ends (an
     * ambiguous token turned out used) is replaced by a new grant, so the load keeps its width.
     */
    async function runLane(
      chains: Chain[],
      outcomes: { worked: number; used: number; refreshes: number },
      lane: number,
    ): Promise<void> {
      let chain = chains[lane] as Chain;
      while (!stopped) {
        if (chain.ended) {
          const issued = await cli(
            'grants',
            'issue',
            '--client',
            'crash',
            '--user',
            `user-${lane}-${chains.length}`,
            '--scope',
            'contacts:read',
          );
          chain = { head: issued.refresh_token as string, rotatedAway: [], ambiguous: null, ended: false };
          chains.push(chain);
        }
        if (chain.ambiguous !== null) {
          // Another presentation may be cut off by the next kill: then it stays ambiguous.
          try {
            await resolveAmbiguous(chain, outcomes);
          } catch (error) {
            if (!(error instanceof NoAnswer)) throw error;
          }
          continue;
        }
        let answer: Answer;
        try {
          answer = await refresh(chain.head);
        } catch (error) {
          if (!(error instanceof NoAnswer)) throw error;
          if (error.sent) chain.ambiguous = chain.head;
          else await sleep(25);
          continue;
        }
        assert.equal(answer.status, 200, `a live head is refreshed: ${JSON.stringify(answer.body)}`);
        chain.rotatedAway.push(chain.head);
        chain.head = answer.body.refresh_token as string;
        outcomes.refreshes += 1;
      }
    }

    async function runRestWorker(
      accessToken: string,
      worker: number,
      created: Map<string, Record<string, unknown>>,
    ): Promise<void> {
      for (let i = 0; !stopped; i++) {
        const record = { email: `w${worker}.r${i}@example.com`, name: `worker ${worker} record ${i}` };
        try {
          const answer = await call('/v2/contacts', {
            method: 'POST',
            headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
            body: JSON.stringify(record),
          });
          assert.equal(answer.status, 201, JSON.stringify(answer.body));
          created.set(answer.body.id as string, record);
        } catch (error) {
          if (!(error instanceof NoAnswer)) throw error;
          // Sent and cut off: the record may or may not exist; nothing was promised.
          await sleep(25);
        }
      }
    }

    async function killNow(): Promise<void> {
      const dying = server as ServerProcess;
      server = undefined;
      dying.child.kill('SIGKILL');
      if (dying.child.exitCode === null && dying.child.signalCode === null) await once(dying.child, 'exit');
    }

    async function start(): Promise<void> {
      server = await spawnServer({ ...env, LOG_LEVEL: 'warn' });
    }

    const chains: Chain[] = [];
    const created = new Map<string, Record<string, unknown>>();
    const outcomes = { worked: 0, used: 0, refreshes: 0 };
    let writerToken: string;
    const figures: string[] = [];

    it(`${CHAINS} refresh chains and ${REST_WORKERS} REST writers run while the server is killed with SIGKILL ${KILLS_UNDER_LOAD + 1} times and restarted`, async () => {
      database = await freshDatabase(dialect);
      env = { DATABASE_URL: database.url, ISSUER, OPENAPI_PATH: SHIPPED_OPENAPI };
      await cli('migrate');
      const client = await cli(
        'clients',
        'add',
        '--id',
        'crash',
        '--name',
        'Crash test',
        '--scope',
        'contacts:read contacts:write',
      );
      authorization = basicAuthorization('crash', client.client_secret as string);
      for (let i = 0; i < CHAINS; i++) {
        const issued = await cli(
          'grants',
          'issue',
          '--client',
          'crash',
          '--user',
          `user-${i}`,
          '--scope',
          'contacts:read',
        );
        chains.push({ head: issued.refresh_token as string, rotatedAway: [], ambiguous: null, ended: false });
      }
      writerToken = (
        await cli('grants', 'issue', '--client', 'crash', '--user', 'writer', '--scope', 'contacts:read contacts:write')
      ).access_token as string;
      await start();

      // Load, and a kill -9 at a random moment of it, KILLS_UNDER_LOAD times, then once more at the end.
      const load = [
        ...chains.map((_, lane) => runLane(chains, outcomes, lane)),
        ...Array.from({ length: REST_WORKERS }, (_, i) => runRestWorker(writerToken, i, created)),
      ];
      const killedAfter: number[] = [];
      for (let kill = 0; kill < KILLS_UNDER_LOAD; kill++) {
        const wait = 400 + Math.floor(Math.random() * 1600);
        await sleep(wait);
        killedAfter.push(wait);
        await killNow();
        await start();
      }
      await sleep(300 + Math.floor(Math.random() * 700));
      await killNow();
      stopped = true;
      await Promise.all(load);
      assert.ok(outcomes.refreshes >= CHAINS, `the load ran: ${outcomes.refreshes} refreshes`);
      assert.ok(created.size > 0, 'the REST load ran');
      figures.push(
        `[${dialect}] ${KILLS_UNDER_LOAD + 1} kills (after ${killedAfter.join(', ')} ms of load, then at the end)`,
        `${outcomes.refreshes} refreshes answered 200 over ${chains.length} chains`,
        `${created.size} records answered 201`,
      );

      // A fresh server on the same database, for everything that follows.
      await start();
    });

    it('a token whose refresh got no answer at a kill either works once or is past its rotation limit, nothing else', async () => {
      const atEnd = chains.filter((c) => c.ambiguous !== null);
      for (const chain of atEnd) await resolveAmbiguous(chain, outcomes);
      figures.push(
        `${outcomes.worked + outcomes.used} ambiguous tokens retried (${outcomes.worked} worked, ${outcomes.used} were used; ${atEnd.length} at the final kill)`,
      );
    });

    it('introspection, which changes nothing, shows every last token answered with 200 active and every token rotated away inactive', async () => {
      const introspect = (token: string): Promise<Answer> =>
        answered(() =>
          call('/introspect', {
            method: 'POST',
            headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ token }).toString(),
          }),
        );
      await Promise.all(
        chains.map(async (chain) => {
          if (!chain.ended)
            assert.equal(
              (await introspect(chain.head)).body.active,
              true,
              'the last token answered with 200 is active',
            );
          for (const token of chain.rotatedAway)
            assert.deepEqual((await introspect(token)).body, { active: false }, 'a token rotated away is not');
        }),
      );
    });

    it('the last token of every chain answered with 200 works exactly once', async () => {
      // Before any older token of its chain is presented: presenting one is a replay that revokes the family.
      const live = chains.filter((c) => !c.ended);
      for (const chain of live) {
        const first = await answered(() => refresh(chain.head));
        assert.equal(first.status, 200, `the last token answered with 200 works: ${JSON.stringify(first.body)}`);
        const second = await answered(() => refresh(chain.head));
        assert.equal(second.status, 400);
        assert.equal(second.body.error_description, PAST_LIMIT, 'and only once');
      }
      figures.push(`${live.length} chain heads worked exactly once`);
    });

    it('no token that was rotated away works again: each is past its rotation limit, its use was durable', async () => {
      let checked = 0;
      await Promise.all(
        chains.map(async (chain) => {
          for (const token of chain.rotatedAway) {
            const answer = await answered(() => refresh(token));
            assert.equal(answer.status, 400, `a token rotated away never works again: ${JSON.stringify(answer.body)}`);
            assert.equal(answer.body.error_description, PAST_LIMIT);
            checked += 1;
          }
        }),
      );
      figures.push(`${checked} rotated-away tokens refused as past their rotation limit`);
    });

    it('every record answered with 201 is there, as it was sent', async (t: TestContext) => {
      const records = [...created];
      await Promise.all(
        Array.from({ length: 8 }, async (_, worker) => {
          for (let i = worker; i < records.length; i += 8) {
            const [id, record] = records[i] as [string, Record<string, unknown>];
            const answer = await answered(() =>
              call(`/v2/contacts/${id}`, { headers: { authorization: `Bearer ${writerToken}` } }),
            );
            assert.equal(answer.status, 200, `record ${id} answered 201 is there`);
            assert.deepEqual(answer.body, { id, ...record });
          }
        }),
      );
      figures.push(`${records.length} records read back`);
      t.diagnostic(figures.join('; '));
    });
  });
