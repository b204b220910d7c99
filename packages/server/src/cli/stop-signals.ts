import { constants } from 'node:os';

export type StopSignal = 'SIGINT' | 'SIGTERM';

/** Where the process says what it does with a signal (a pino logger fits). */
export interface StopLog {
  warn(fields: object, message: string): void;
  debug(fields: object, message: string): void;
}

/**
 * Signals closer together than this are one stop. Ctrl-C under `npm start` reaches the server
 * twice: the terminal signals the whole foreground process group (npm and the server), and npm
 * passes its own signal on to its child. Under `npx gatehouse serve` the bin's own SIGTERM (its
 * parent shell is gone) follows within its 250 ms beat.
 */
export const SAME_STOP_MS = 500;

export interface StopSignalOptions {
  /** The requests in flight, named when the third signal cuts them off. */
  readonly inFlight?: () => number;
  /** Called with every signal counted (the primary of `--workers` passes each on to its workers). */
  readonly onSignal?: (signal: StopSignal) => void;
}

export interface StopRequest {
  /** Resolves at the first SIGINT or SIGTERM. */
  readonly requested: Promise<void>;
}

/**
 * Watches for SIGINT and SIGTERM for the rest of the process's life. The first asks for a clean
 * stop (the caller drains and closes the store); the second, while that runs, is logged and changes
 * nothing; the third ends the process at once (exit 128 + the signal's number), after saying so.
 * The listeners stay to the end: without one, a signal takes Node's default action and kills the
 * process wherever its drain is (the request in flight reset, SQLite's -wal and -shm left behind).
 */
export function watchStopSignals(log: StopLog, options: StopSignalOptions = {}): StopRequest {
  let counted = 0;
  let lastCounted = -Infinity;
  let stop!: () => void;
  const requested = new Promise<void>((resolve) => (stop = resolve));
  const onSignal = (signal: StopSignal): void => {
    const at = Date.now();
    if (at - lastCounted < SAME_STOP_MS) {
      log.debug({ signal }, `${signal} again within ${SAME_STOP_MS} ms: the same stop`);
      return;
    }
    counted += 1;
    lastCounted = at;
    options.onSignal?.(signal);
    if (counted === 1) stop();
    else if (counted === 2)
      log.warn(
        { signal },
        `${signal}: already stopping, finishing the requests in flight; send it again to stop at once`,
      );
    else {
      const inFlight = options.inFlight?.();
      const cutOff = inFlight === undefined ? '' : `, cutting off ${inFlight} request(s) in flight`;
      log.warn({ signal, inFlight }, `${signal} a third time: stopping at once${cutOff}`);
      process.exit(128 + constants.signals[signal]);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return { requested };
}
