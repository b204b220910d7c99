import type { FastifyBaseLogger } from 'fastify';

/**
 * Work a page started and answered before it ended (the reset mails, sent after the page so that its
 * timing tells nothing): awaited when the server closes, so a stop loses none of it.
 */
export class AfterAnswer {
  readonly #running = new Set<Promise<unknown>>();
  readonly #log: FastifyBaseLogger;
  constructor(log: FastifyBaseLogger) {
    this.#log = log;
  }

  run(what: string, work: () => Promise<unknown>): void {
    const running = work()
      .catch((error: unknown) => this.#log.error({ err: error }, `${what} failed after the page was answered`))
      .finally(() => this.#running.delete(running));
    this.#running.add(running);
  }

  async settled(): Promise<void> {
    await Promise.all([...this.#running]);
  }
}
