import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CrashRun, PAST_LIMIT } from './_crash-load.js';
import { DIALECTS } from './_dialects.js';

/**
 * Nothing answered is lost (docs/architecture.md, "Atomicity and durability"): under refresh and REST
 * load the built server is killed with SIGKILL at random moments and restarted on the same database.
 * Each dialect runs one load on a fresh database (test/_crash-load.ts), which fails unless its kills
 * (a kill counts only when it cut off a refresh in flight) happened. Afterwards, with a fresh server,
 * the checks below run in this order on that run (a check that presents tokens comes after those
 * that only read, as presenting a rotated-away token is a replay that revokes its family):
 * - a token in flight at a kill may have been committed or not: it is presented again once the server
 *   is back, and must then either work or be refused as past its rotation limit, never anything else;
 * - introspection shows every last token answered with 200 active and every token rotated away inactive;
 * - every record answered with 201 is there, as it was sent;
 * - the last refresh token of every chain answered with 200 works exactly once;
 * - every token that was rotated away (answered 200, then exchanged with a 200) is refused as past
 *   its rotation limit — its use was durable too.
 * SQLite matters most here (WAL, synchronous=FULL, group commit); PostgreSQL runs too. One run per
 * dialect, not one per check: a run is the cost of this file (about 12 s each).
 */
const KILLS_UNDER_LOAD = 1;

for (const dialect of DIALECTS)
  describe(`kill -9 under refresh and REST load, restart, nothing answered is lost [${dialect}]`, () => {
    let run: CrashRun;
    before(async () => {
      run = new CrashRun(dialect);
      await run.crash(KILLS_UNDER_LOAD);
    });
    after(() => run?.close());

    it('a token whose refresh got no answer at a kill either works once or is past its rotation limit, nothing else', async (t) => {
      const ambiguous = run.chains.filter((c) => c.ambiguous !== null);
      for (const chain of ambiguous) await run.resolveAmbiguous(chain);
      const { worked, used } = run.outcomes;
      assert.ok(worked + used > 0, 'the kills left tokens whose fate was unknown');
      t.diagnostic(
        `${run.figures()}; ${worked + used} ambiguous tokens retried (${worked} worked, ${used} were used; ${ambiguous.length} at the final kill)`,
      );
    });

    it('introspection, which changes nothing, shows every last token answered with 200 active and every token rotated away inactive', async (t) => {
      let inactive = 0;
      await Promise.all(
        run.chains.map(async (chain) => {
          if (!chain.ended)
            assert.equal(
              (await run.introspect(chain.head)).body.active,
              true,
              'the last token answered with 200 is active',
            );
          for (const token of chain.rotatedAway) {
            assert.deepEqual((await run.introspect(token)).body, { active: false }, 'a token rotated away is not');
            inactive += 1;
          }
        }),
      );
      t.diagnostic(`${run.figures()}; ${inactive} rotated-away tokens inactive`);
    });

    it('every record answered with 201 is there, as it was sent', async (t) => {
      const records = [...run.created];
      await Promise.all(
        Array.from({ length: 8 }, async (_, worker) => {
          for (let i = worker; i < records.length; i += 8) {
            const [id, record] = records[i] as [string, Record<string, unknown>];
            const answer = await run.readRecord(id);
            assert.equal(answer.status, 200, `record ${id} answered 201 is there`);
            assert.deepEqual(answer.body, { id, ...record });
          }
        }),
      );
      t.diagnostic(`${run.figures()}; ${records.length} records read back`);
    });

    it('the last token of every chain answered with 200 works exactly once', async (t) => {
      const live = run.chains.filter((c) => !c.ended);
      for (const chain of live) {
        const first = await run.refresh(chain.head);
        assert.equal(first.status, 200, `the last token answered with 200 works: ${JSON.stringify(first.body)}`);
        const second = await run.refresh(chain.head);
        assert.equal(second.status, 400);
        assert.equal(second.body.error_description, PAST_LIMIT, 'and only once');
      }
      t.diagnostic(`${run.figures()}; ${live.length} chain heads worked exactly once`);
    });

    it('no token that was rotated away works again: each is past its rotation limit, its use was durable', async (t) => {
      let checked = 0;
      await Promise.all(
        run.chains.map(async (chain) => {
          for (const token of chain.rotatedAway) {
            const answer = await run.refresh(token);
            assert.equal(answer.status, 400, `a token rotated away never works again: ${JSON.stringify(answer.body)}`);
            assert.equal(answer.body.error_description, PAST_LIMIT);
            checked += 1;
          }
        }),
      );
      t.diagnostic(`${run.figures()}; ${checked} rotated-away tokens refused as past their rotation limit`);
    });
  });
