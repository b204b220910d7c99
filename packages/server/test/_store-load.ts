import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli } from '../src/cli/run.js';
import { basicAuthorization } from './_server.js';
import { until } from './_until.js';

/**
 * Refresh and REST load against Gatehouse processes while the test takes their database away:
 * refresh chains (each keeps its newest refresh token and, on a 503, presents the same one again)
 * and REST writers (create a contact, read it back). Every answer is recorded with its time, so the
 * test can say how long the service was out and what clients saw meanwhile.
 */
export interface Answered {
  readonly at: number;
  readonly status: number;
}

interface Grant {
  readonly refresh_token: string;
  readonly access_token: string;
}

export interface LoadOptions {
  /** The base URLs of the processes; requests go round them. */
  readonly urls: readonly string[];
  /** The operator CLI's environment (DATABASE_URL, ISSUER, …). */
  readonly env: Record<string, string>;
  readonly chains: number;
  readonly writers: number;
}

/** One client with `chains + writers` grants, issued with the operator CLI. */
export async function issueGrants(
  env: Record<string, string>,
  count: number,
  clientArgs: string[] = [],
): Promise<{ authorization: string; grants: { refresh_token: string; access_token: string }[] }> {
  const cli = async (...argv: string[]): Promise<Record<string, string>> => {
    let out = '';
    const code = await runCli(argv, env, { out: (t) => (out += t), err: () => {} });
    assert.equal(code, 0, `gatehouse ${argv.join(' ')}`);
    return JSON.parse(out) as Record<string, string>;
  };
  const scope = 'contacts:read contacts:write';
  const added = await cli('clients', 'add', '--id', 'load', '--name', 'Load', '--scope', scope, ...clientArgs);
  // A grant is a user's: one user holds them all.
  await cli('users', 'add', '--username', 'load');
  const grants: Grant[] = [];
  for (let i = 0; i < count; i++) {
    const { refresh_token, access_token } = await cli(
      'grants',
      'issue',
      '--client',
      'load',
      '--user',
      'load',
      '--scope',
      scope,
    );
    grants.push({ refresh_token: refresh_token as string, access_token: access_token as string });
  }
  return { authorization: basicAuthorization('load', added.client_secret ?? ''), grants };
}

/** Answers the clients see of the service (2xx) or of an outage (503) before a test takes its next step. */
const SEEN = 20;

export class StoreLoad {
  readonly answers: Answered[] = [];
  /** Anything a client must never see: a 5xx other than 503, a 503 without Retry-After, a lost token, no answer. */
  readonly faults: string[] = [];
  readonly heads: string[];
  /** Per chain, every refresh token it rotated away (answered 200 for it), with when. */
  readonly superseded: { token: string; at: number }[][];
  /** Refresh tokens answered 503 and presented again: how many of them worked then. */
  retriedAfter503 = 0;
  /** Records answered 201, with the writer whose token created them (records belong to their creator). */
  readonly records: { location: string; email: string; writer: number }[] = [];
  #running = true;
  #loops: Promise<void>[] = [];
  readonly #options: LoadOptions;
  readonly #authorization: string;
  readonly #accessTokens: string[];

  constructor(options: LoadOptions, authorization: string, grants: { refresh_token: string; access_token: string }[]) {
    this.#options = options;
    this.#authorization = authorization;
    this.heads = grants.slice(0, options.chains).map((g) => g.refresh_token);
    this.superseded = this.heads.map(() => []);
    this.#accessTokens = grants.slice(options.chains).map((g) => g.access_token);
  }

  start(): void {
    for (let i = 0; i < this.#options.chains; i++) this.#loops.push(this.#chain(i));
    for (let i = 0; i < this.#options.writers; i++) this.#loops.push(this.#writer(i));
  }

  async stop(): Promise<void> {
    this.#running = false;
    await Promise.all(this.#loops);
  }

  count(status: number, from = 0, to = Infinity): number {
    return this.answers.filter((a) => a.status === status && a.at >= from && a.at < to).length;
  }

  /** How many 2xx answers the clients had since `from`. */
  served(from: number): number {
    return this.answers.filter((a) => a.at >= from && a.status < 300).length;
  }

  /** Resolves once the clients had `count` 2xx answers since `from`: the service runs (30 s at most). */
  async untilServed(from: number, count = SEEN): Promise<void> {
    await until(
      () => this.served(from) >= count,
      () => `${count} answers 2xx: ${this.faults.slice(0, 5).join('; ')}`,
    );
  }

  /** Resolves once the clients had `count` 503s since `from`: they see the outage (30 s at most). */
  async untilUnavailable(from: number, count = SEEN): Promise<void> {
    await until(
      () => this.count(503, from) >= count,
      () => `${count} answers 503: ${this.faults.slice(0, 5).join('; ')}`,
    );
  }

  /** Ms from `since` to the first 2xx answered after it (Infinity if none yet). */
  recoveredAfter(since: number): number {
    const first = this.answers.find((a) => a.at >= since && a.status < 300);
    return first ? first.at - since : Infinity;
  }

  /** Resolves once a 2xx is answered after `since`, or rejects after `timeoutMs`. */
  async waitForService(since: number, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const took = this.recoveredAfter(since);
      if (took !== Infinity) return took;
      await sleep(20);
    }
    throw new Error(`no successful answer within ${timeoutMs} ms; faults: ${this.faults.slice(0, 5).join('; ')}`);
  }

  url(i: number): string {
    return this.#options.urls[i % this.#options.urls.length] as string;
  }

  async #send(url: string, init: RequestInit): Promise<Response | undefined> {
    try {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
      this.answers.push({ at: Date.now(), status: response.status });
      if (response.status >= 500 && response.status !== 503) this.faults.push(`${url}: ${response.status}`);
      if (response.status === 503 && response.headers.get('retry-after') === null)
        this.faults.push(`${url}: 503 without Retry-After`);
      return response;
    } catch (error) {
      this.faults.push(`${url}: no answer (${(error as Error).message})`);
      return undefined;
    }
  }

  async #chain(i: number): Promise<void> {
    let after503 = false;
    for (let n = 0; this.#running; n++) {
      const response = await this.#send(`${this.url(i + n)}/token`, {
        method: 'POST',
        headers: { authorization: this.#authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: this.heads[i] as string }).toString(),
      });
      const body = (await response?.json().catch(() => ({}))) as { refresh_token?: string; error_description?: string };
      if (response?.status === 200 && body.refresh_token) {
        this.superseded[i]?.push({ token: this.heads[i] as string, at: Date.now() });
        this.heads[i] = body.refresh_token;
        if (after503) this.retriedAfter503++;
        after503 = false;
      } else if (response?.status === 503) {
        after503 = true;
        await sleep(50);
      } else if (response) {
        this.faults.push(`chain ${i}: ${response.status} ${body.error_description ?? ''} (token lost)`);
        return;
      }
    }
  }

  async #writer(i: number): Promise<void> {
    const headers = { authorization: `Bearer ${this.#accessTokens[i]}`, 'content-type': 'application/json' };
    for (let n = 0; this.#running; n++) {
      const email = `w${i}-${n}@example.com`;
      const url = this.url(i + n);
      const created = await this.#send(`${url}/v2/contacts`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email }),
      });
      if (created?.status === 201) {
        const location = created.headers.get('location') as string;
        this.records.push({ location, email, writer: i });
        await this.#send(`${this.url(i + n + 1)}${location}`, { headers });
      } else if (created?.status === 503) {
        await sleep(50);
      } else if (created && created.status !== 503) {
        this.faults.push(`writer ${i}: ${created.status} ${await created.text()}`);
      }
      await created?.body?.cancel().catch(() => {});
    }
  }

  /**
   * After the primary changed between `started` and `done` (ms): no token rotated away comes back (RFC
   * 9700 §4.14.2). Of each chain, the last token it rotated before the change and the first it rotated
   * after (a lost commit would have brought one of them back as the head), then its first, are refused
   * with invalid_grant; at least 8 tokens are checked.
   */
  async assertRotatedAwayRefused(started: number, done: number): Promise<void> {
    let checked = 0;
    for (const [i, tokens] of this.superseded.entries()) {
      const before = tokens.filter((s) => s.at < started).at(-1);
      const afterwards = tokens.find((s) => s.at >= done);
      for (const old of [afterwards, before, tokens[0]]) {
        if (!old) continue;
        const response = await fetch(`${this.url(i)}/token`, {
          method: 'POST',
          headers: { authorization: this.#authorization, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: old.token }).toString(),
        });
        assert.equal(response.status, 400, `chain ${i}: a rotated token answered ${response.status}`);
        assert.equal(((await response.json()) as { error: string }).error, 'invalid_grant');
        checked++;
      }
    }
    assert.ok(checked >= 8, `checked ${checked} rotated tokens`);
  }

  /** After the load: every chain's newest token refreshes, every record answered 201 reads back, on every URL. */
  async assertNothingLost(): Promise<void> {
    for (const [i, head] of this.heads.entries()) {
      const response = await fetch(`${this.url(i)}/token`, {
        method: 'POST',
        headers: { authorization: this.#authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: head }).toString(),
      });
      assert.equal(response.status, 200, `chain ${i}: ${await response.text()}`);
    }
    for (const url of this.#options.urls)
      for (const { location, email, writer } of this.records) {
        const headers = { authorization: `Bearer ${this.#accessTokens[writer]}` };
        const read = await fetch(`${url}${location}`, { headers });
        assert.equal(read.status, 200, `${url}${location}`);
        assert.equal(((await read.json()) as { email: string }).email, email);
      }
  }
}
