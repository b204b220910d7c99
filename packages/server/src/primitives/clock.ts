/** Time in whole epoch seconds, injectable so tests can let time pass. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Math.floor(Date.now() / 1000) };
