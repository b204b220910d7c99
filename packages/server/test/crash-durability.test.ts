import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { CrashRun, PAST_LIMIT } from './_crash-load.js';
import { DIALECTS, type Dialect } from './_dialects.js';

/**
 * Nothing answered is lost (docs/architecture.md, "Atomicity and durability"): under refresh and REST
 * load the built server is killed with SIGKILL at random moments and restarted on the same database.
 * Each case runs its own load on a fresh database (test/_crash-load.ts), and fails unless its kills
 * (a kill counts only when it cut off a refresh in flight) happened. Afterwards, with a fresh server:
 * - the last refresh token of every chain answered with 200 works exactly once;
 * - every token that was rotated away (answered 200, then exchanged with a 200) is refused as past
 *   its rotation limit — its use was durable too;
 * - every record answered with 201 is there, as it was sent.
 * A request in flight at a kill may have been committed or not: its token is retried once the server
 * is back, and must then either work or be refused as past its rotation limit, never anything else.
 * SQLite matters most here (WAL, synchronous=FULL, group commit); PostgreSQL runs too.
 */
const KILLS_UNDER_LOAD = 1;

/** A crash run of the case's own, on a fresh database, dropped when the case ends. */
async function crashed(t: TestContext, dialect: Dialect): Promise<CrashRun> {
  const run = new CrashRun(dialect);
  t.after(() => run.close());
  await run.crash(KILLS_UNDER_LOAD);
  return run;
}

/** Settles the tokens whose refresh the kills cut off, each by presenting it again. */
async function resolveAmbiguousTokens(run: CrashRun): Promise<number> {
  const ambiguous = run.chains.filter((c) => c.ambiguous !== null);
  for (const chain of ambiguous) await run.resolveAmbiguous(chain);
  return ambiguous.length;
}

for (const dialect of DIALECTS)
  // The cases share nothing (each has its own database and server), so they run side by side.
  describe(
    `kill -9 under refresh and REST load, restart, nothing answered is lost [${dialect}]`,
    { concurrency: true },
    () => {
      it('a token whose refresh got no answer at a kill either works once or is past its rotation limit, nothing else', async (t) => {
        const run = await crashed(t, dialect);
        const atEnd = await resolveAmbiguousTokens(run);
        const { worked, used } = run.outcomes;
        assert.ok(worked + used > 0, 'the kills left tokens whose fate was unknown');
        t.diagnostic(
          `${run.figures()}; ${worked + used} ambiguous tokens retried (${worked} worked, ${used} were used; ${atEnd} at the final kill)`,
        );
      });

      it('introspection, which changes nothing, shows every last token answered with 200 active and every token rotated away inactive', async (t) => {
        const run = await crashed(t, dialect);
        await resolveAmbiguousTokens(run);
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

      it('the last token of every chain answered with 200 works exactly once', async (t) => {
        const run = await crashed(t, dialect);
        await resolveAmbiguousTokens(run);
        // Before any older token of its chain is presented: presenting one is a replay that revokes the family.
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
        const run = await crashed(t, dialect);
        await resolveAmbiguousTokens(run);
        let checked = 0;
        await Promise.all(
          run.chains.map(async (chain) => {
            for (const token of chain.rotatedAway) {
              const answer = await run.refresh(token);
              assert.equal(
                answer.status,
                400,
                `a token rotated away never works again: ${JSON.stringify(answer.body)}`,
              );
              assert.equal(answer.body.error_description, PAST_LIMIT);
              checked += 1;
            }
          }),
        );
        t.diagnostic(`${run.figures()}; ${checked} rotated-away tokens refused as past their rotation limit`);
      });

      it('every record answered with 201 is there, as it was sent', async (t) => {
        const run = await crashed(t, dialect);
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
    },
  );
