import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli } from '../src/cli/run.js';
import { freshDatabase, type Dialect } from './_dialects.js';
import { spawnServer, type ServerProcess } from './_processes.js';
import { basicAuthorization, SHIPPED_OPENAPI } from './_server.js';

/** The harness of crash-durability.test.ts: one fresh database, refresh and REST load, kill -9, restart. */

const ISSUER = 'http://gatehouse.test';
const CHAINS = 8;
/** The user whose grants the chains are. */
const CHAIN_USER = 'chains';
const REST_WORKERS = 4;
export const PAST_LIMIT = 'refresh token is past its rotation limit';

/** Why a request got no answer: never sent (refused connection), or sent and cut off (ambiguous). */
export class NoAnswer extends Error {
  readonly sent: boolean;
  constructor(sent: boolean, cause: unknown) {
    super(sent ? 'no answer: the connection broke' : 'not sent: connection refused', { cause });
    this.sent = sent;
  }
}

export interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** A refresh-token chain: its live head, the tokens rotated away, and a token whose fate is unknown. */
export interface Chain {
  head: string;
  readonly rotatedAway: string[];
  /** A token sent when the server died: maybe rotated (its new head lost to us), maybe not. */
  ambiguous: string | null;
  /** The chain ended: an ambiguous token turned out to be used, and presenting it revoked the family. */
  ended: boolean;
}

/** One kill -9: after how much load, and the requests it cut off (sent to the dying server, never answered). */
export interface Kill {
  /** Milliseconds the killed server ran under load. */
  readonly afterMs: number;
  readonly refreshesCutOff: number;
  readonly writesCutOff: number;
}

/** The requests sent to one server process: how many are unsettled, and how many it never answered. */
interface Traffic {
  pending: number;
  refreshesCutOff: number;
  writesCutOff: number;
}

/** Kills beyond the ones asked for, to make up for kills that happened to cut off no refresh. */
const SPARE_KILLS = 3;

/**
 * A crash run: `crash` loads a server of its own on a fresh database, kills it with SIGKILL at random
 * moments, restarts it on the same database, and leaves a fresh server up for the checks. A kill
 * counts only when it cut off a refresh in flight (sent, never answered), so no run passes with
 * nothing in flight at its kills.
 */
export class CrashRun {
  readonly chains: Chain[] = [];
  /** Records answered with 201, by id, as they were sent. */
  readonly created = new Map<string, Record<string, unknown>>();
  readonly outcomes = { worked: 0, used: 0, refreshes: 0 };
  /** Every kill, once the requests sent to the killed server have settled. */
  readonly kills: Kill[] = [];
  writerToken = '';
  readonly #dialect: Dialect;
  #database: { url: string; drop(): Promise<void> } | undefined;
  #env: Record<string, string> = {};
  #authorization = '';
  #server: ServerProcess | undefined;
  #stopped = false;
  /** Set by close(): nothing is retried any more (a server that never came back must not hold the test). */
  #closed = false;
  #loadFailed = false;
  readonly #traffic = new Map<ServerProcess, Traffic>();

  constructor(dialect: Dialect) {
    this.#dialect = dialect;
  }

  /**
   * Runs the load until `killsUnderLoad` kills and one that ends the load have each cut off a refresh
   * in flight. Each kill comes at a random moment once the server of the moment has answered some of
   * the load, as soon as a refresh has been sent to it in full (the other lanes are wherever they
   * are). On a busy machine the server may answer that refresh before the signal lands; such a kill
   * is repeated, up to SPARE_KILLS times. Then a fresh server is started for the checks.
   */
  async crash(killsUnderLoad: number): Promise<void> {
    await this.#setUp();
    const loading = Promise.all([
      ...this.chains.map((_, lane) => this.#runLane(lane)),
      ...Array.from({ length: REST_WORKERS }, (_, worker) => this.#runRestWorker(worker)),
    ]);
    loading.catch(() => (this.#loadFailed = true));
    const wanted = killsUnderLoad + 1;
    let counted = 0;
    for (let attempt = 0; counted < wanted && attempt < wanted + SPARE_KILLS; attempt++) {
      if (attempt > 0) await this.#start();
      const afterMs = await this.#underLoad();
      await refreshSent((this.#server as ServerProcess).url, 10_000);
      if ((await this.#kill(afterMs)).refreshesCutOff > 0) counted += 1;
    }
    this.#stopped = true;
    await loading;
    assert.ok(this.outcomes.refreshes >= CHAINS, `the refresh load ran: ${this.outcomes.refreshes} refreshes`);
    assert.ok(this.created.size > 0, 'the REST load ran');
    assert.equal(counted, wanted, `kills that cut off a refresh in flight: ${this.#killsFigure()}`);
    // A fresh server on the same database, for the checks.
    await this.#start();
  }

  /**
   * Waits until the server of the moment has answered a refresh per chain and a write per REST worker
   * (so a slow machine still kills under load), then a random while more; returns the milliseconds.
   * A load that fails or stalls for a minute stops the wait: the checks after the load then fail.
   */
  async #underLoad(): Promise<number> {
    const started = Date.now();
    const refreshes = this.outcomes.refreshes + CHAINS;
    const records = this.created.size + REST_WORKERS;
    const progressing = (): boolean => !this.#loadFailed && Date.now() - started < 60_000;
    while ((this.outcomes.refreshes < refreshes || this.created.size < records) && progressing()) await sleep(10);
    // Then a random while more: the kill's moment is the fault, not a wait for something.
    await sleep(Math.floor(Math.random() * 500));
    return Date.now() - started;
  }

  /** Stops the server and drops the database. */
  async close(): Promise<void> {
    this.#stopped = true;
    this.#closed = true;
    await this.#server?.stop();
    await this.#database?.drop();
  }

  /** What the run did, for the test's diagnostic line. */
  figures(): string {
    return [
      `[${this.#dialect}] ${this.#killsFigure()}`,
      `${this.outcomes.refreshes} refreshes answered 200 over ${this.chains.length} chains`,
      `${this.created.size} records answered 201`,
    ].join('; ');
  }

  #killsFigure(): string {
    const kills = this.kills.map(
      (k) => `after ${k.afterMs} ms: ${k.refreshesCutOff} refreshes and ${k.writesCutOff} writes cut off`,
    );
    return `${this.kills.length} kills (${kills.join('; ')})`;
  }

  /** One refresh, answered by the server of the moment (retried while it restarts). */
  refresh(token: string): Promise<Answer> {
    return this.#answered(() => this.#refresh(token));
  }

  introspect(token: string): Promise<Answer> {
    return this.#answered(() =>
      this.#call('/introspect', {
        method: 'POST',
        headers: { authorization: this.#authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }).toString(),
      }),
    );
  }

  readRecord(id: string): Promise<Answer> {
    return this.#answered(() =>
      this.#call(`/v2/contacts/${id}`, { headers: { authorization: `Bearer ${this.writerToken}` } }),
    );
  }

  /**
   * Resolves an ambiguous token: presented again once answered, it either works (the rotation was
   * not committed: the chain goes on) or is past its rotation limit (it was: presenting it again is
   * a replay, which revokes the family, so the chain ends). Nothing else is acceptable.
   */
  async resolveAmbiguous(chain: Chain): Promise<void> {
    const token = chain.ambiguous as string;
    const answer = await this.refresh(token);
    if (answer.status === 200) {
      chain.rotatedAway.push(token);
      chain.head = answer.body.refresh_token as string;
      this.outcomes.worked += 1;
    } else {
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal(
        answer.body.error_description,
        PAST_LIMIT,
        `an ambiguous token is either unused or used, never ${JSON.stringify(answer.body)}`,
      );
      chain.ended = true;
      this.outcomes.used += 1;
    }
    chain.ambiguous = null;
  }

  async #setUp(): Promise<void> {
    this.#database = await freshDatabase(this.#dialect);
    this.#env = { DATABASE_URL: this.#database.url, ISSUER, OPENAPI_PATH: SHIPPED_OPENAPI };
    await this.#cli('migrate');
    const client = await this.#cli(
      'clients',
      'add',
      '--id',
      'crash',
      '--name',
      'Crash test',
      '--scope',
      'contacts:read contacts:write',
    );
    this.#authorization = basicAuthorization('crash', client.client_secret as string);
    // A grant is a user's: every chain is a grant of one user, the writer's another's.
    for (const username of [CHAIN_USER, 'writer']) await this.#cli('users', 'add', '--username', username);
    // The first issue makes the signing key; the others run together.
    this.chains.push(await this.#newChain());
    const others = Array.from({ length: CHAINS - 1 }, () => this.#newChain());
    this.chains.push(...(await Promise.all(others)));
    const writer = await this.#cli(
      'grants',
      'issue',
      '--client',
      'crash',
      '--user',
      'writer',
      '--scope',
      'contacts:read contacts:write',
    );
    this.writerToken = writer.access_token as string;
    await this.#start();
  }

  async #newChain(): Promise<Chain> {
    const issued = await this.#cli(
      'grants',
      'issue',
      '--client',
      'crash',
      '--user',
      CHAIN_USER,
      '--scope',
      'contacts:read',
    );
    return { head: issued.refresh_token as string, rotatedAway: [], ambiguous: null, ended: false };
  }

  async #cli(...argv: string[]): Promise<Record<string, string>> {
    let out = '';
    let err = '';
    const code = await runCli(argv, this.#env, { out: (t) => (out += t), err: (t) => (err += t) });
    assert.equal(code, 0, `gatehouse ${argv.join(' ')}: ${err}`);
    return JSON.parse(out) as Record<string, string>;
  }

  async #start(): Promise<void> {
    this.#server = await spawnServer({ ...this.#env, LOG_LEVEL: 'warn' });
    this.#traffic.set(this.#server, { pending: 0, refreshesCutOff: 0, writesCutOff: 0 });
  }

  /**
   * Kills the server of the moment with SIGKILL, waits for it to be gone and for every request sent
   * to it to settle (each has a 10 s limit), and records what the kill cut off.
   */
  async #kill(afterMs: number): Promise<Kill> {
    const dying = this.#server as ServerProcess;
    this.#server = undefined;
    dying.group.kill();
    await dying.group.exited;
    const traffic = this.#traffic.get(dying) as Traffic;
    while (traffic.pending > 0) await sleep(10);
    const kill = { afterMs, refreshesCutOff: traffic.refreshesCutOff, writesCutOff: traffic.writesCutOff };
    this.kills.push(kill);
    return kill;
  }

  /** One request to the server of the moment; NoAnswer when there was none. */
  async #call(path: string, init: RequestInit): Promise<Answer> {
    const target = this.#server;
    if (!target || target.child.exitCode !== null || target.child.signalCode !== null)
      throw new NoAnswer(false, 'down');
    const traffic = this.#traffic.get(target) as Traffic;
    const cutOff = (error: unknown): NoAnswer => {
      if (path === '/token') traffic.refreshesCutOff += 1;
      else if (init.method === 'POST' && path === '/v2/contacts') traffic.writesCutOff += 1;
      return new NoAnswer(true, error);
    };
    traffic.pending += 1;
    try {
      let response: Response;
      try {
        response = await fetch(`${target.url}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
      } catch (error) {
        if ((error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED') throw new NoAnswer(false, error);
        throw cutOff(error);
      }
      try {
        const text = await response.text();
        return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
      } catch (error) {
        throw cutOff(error);
      }
    } finally {
      traffic.pending -= 1;
    }
  }

  #refresh(token: string): Promise<Answer> {
    return this.#call('/token', {
      method: 'POST',
      headers: { authorization: this.#authorization, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }).toString(),
    });
  }

  /**
   * Retries a request that got no answer until it gets one (the server may be restarting); once the
   * load is stopped with the server down, gives up, leaving it to the checks on a fresh server.
   */
  async #answered<T>(send: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await send();
      } catch (error) {
        if (!(error instanceof NoAnswer) || this.#closed || (this.#stopped && this.#server === undefined)) throw error;
        await sleep(25);
      }
    }
  }

  /**
   * One lane of refresh load: refreshes its chain's head over and over. A chain that ends (an
   * ambiguous token turned out used) is replaced by a new grant, so the load keeps its width.
   */
  async #runLane(lane: number): Promise<void> {
    let chain = this.chains[lane] as Chain;
    while (!this.#stopped) {
      if (chain.ended) {
        chain = await this.#newChain();
        this.chains.push(chain);
      }
      if (chain.ambiguous !== null) {
        // Another presentation may be cut off by the next kill: then it stays ambiguous.
        try {
          await this.resolveAmbiguous(chain);
        } catch (error) {
          if (!(error instanceof NoAnswer)) throw error;
        }
        continue;
      }
      let answer: Answer;
      try {
        answer = await this.#refresh(chain.head);
      } catch (error) {
        if (!(error instanceof NoAnswer)) throw error;
        if (error.sent) chain.ambiguous = chain.head;
        else await sleep(25);
        continue;
      }
      assert.equal(answer.status, 200, `a live head is refreshed: ${JSON.stringify(answer.body)}`);
      chain.rotatedAway.push(chain.head);
      chain.head = answer.body.refresh_token as string;
      this.outcomes.refreshes += 1;
    }
  }

  async #runRestWorker(worker: number): Promise<void> {
    for (let i = 0; !this.#stopped; i++) {
      const record = { email: `w${worker}.r${i}@example.com`, name: `worker ${worker} record ${i}` };
      try {
        const answer = await this.#call('/v2/contacts', {
          method: 'POST',
          headers: { authorization: `Bearer ${this.writerToken}`, 'content-type': 'application/json' },
          body: JSON.stringify(record),
        });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
        this.created.set(answer.body.id as string, record);
      } catch (error) {
        if (!(error instanceof NoAnswer)) throw error;
        // Sent and cut off: the record may or may not exist; nothing was promised.
        await sleep(25);
      }
    }
  }
}

/** Resolves once the next refresh has been sent in full to `url` (undici's bodySent), or after `limitMs`. */
function refreshSent(url: string, limitMs: number): Promise<void> {
  const origin = new URL(url).origin;
  return new Promise((resolve) => {
    const onSent = (message: unknown): void => {
      const { request } = message as { request?: { origin?: string; path?: string } };
      if (request?.origin === origin && request.path === '/token') done();
    };
    const timer = setTimeout(done, limitMs);
    function done(): void {
      clearTimeout(timer);
      diagnostics.unsubscribe('undici:request:bodySent', onSent);
      resolve();
    }
    diagnostics.subscribe('undici:request:bodySent', onSent);
  });
}
