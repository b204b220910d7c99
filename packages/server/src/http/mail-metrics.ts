import { Counter, Gauge, type Registry } from 'prom-client';

/** The outcomes a message is counted by. */
const MAIL_OUTCOMES = ['queued', 'sent', 'failed'] as const;

/**
 * What the metrics read of the mail outbox (mail/) at each scrape: the messages this process queued,
 * sent and failed (counted once committed), and the queue as the store holds it (every process's).
 */
export interface MailReadings {
  counts(): ReadonlyMap<(typeof MAIL_OUTCOMES)[number], number>;
  /** Messages queued or being sent, and when the oldest of them was queued (epoch ms). */
  queue(): Promise<{ readonly waiting: number; readonly oldestCreatedMs: number | null }>;
}

/**
 * The outbox's series: `gatehouse_mail_messages_total{outcome}` (per process, every outcome from
 * zero), `gatehouse_mail_queue_messages` and `gatehouse_mail_queue_oldest_age_seconds` (read from the
 * store at each scrape; one read; a store that does not answer leaves them as they were, and the
 * scrape still answers).
 */
export function registerMailMetrics(registry: Registry, mail: MailReadings, nowMs: () => number = Date.now): void {
  const registers = [registry];
  new Counter({
    name: 'gatehouse_mail_messages_total',
    help: 'Mail messages this process queued in the outbox, sent, or gave up on (failed), by outcome.',
    labelNames: ['outcome'],
    registers,
    collect() {
      this.reset();
      const counts = mail.counts();
      for (const outcome of MAIL_OUTCOMES) this.inc({ outcome }, counts.get(outcome) ?? 0);
    },
  });
  // One read serves both gauges: the registry collects them together, each waiting for it.
  let reading: Promise<void> | undefined;
  const read = (): Promise<void> => (reading ??= readQueue().finally(() => (reading = undefined)));
  const waiting = new Gauge({
    name: 'gatehouse_mail_queue_messages',
    help: 'Messages in the outbox not yet sent or failed (queued, or being sent), on every process of the store.',
    registers,
    collect: read,
  });
  const age = new Gauge({
    name: 'gatehouse_mail_queue_oldest_age_seconds',
    help: 'Seconds since the oldest message of the outbox not yet sent or failed was queued; 0 when none waits.',
    registers,
    collect: read,
  });
  async function readQueue(): Promise<void> {
    try {
      const queue = await mail.queue();
      waiting.set(queue.waiting);
      age.set(queue.oldestCreatedMs === null ? 0 : Math.max(0, (nowMs() - queue.oldestCreatedMs) / 1000));
    } catch {
      // The store did not answer: the gauges keep their last values; /health/ready says why.
    }
  }
}
