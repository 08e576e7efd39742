/**
 * Business time: the instant commands decide at, sagas act at and routes answer about. Commands,
 * sagas and routes read it from the system's clock and hand it to the domain (which never reads a
 * clock), so a test can run the whole server at another time without touching the global `Date`
 * (the browser suite's server moves it: tests/e2e/movableClock.ts). Durations (timeouts, polling
 * deadlines, latencies, backoff) are not business time and keep reading the process's own clock.
 */
export interface Clock {
  now(): Date;
}

/** The real time: what every deployment runs on. */
export const systemClock: Clock = { now: () => new Date() };
