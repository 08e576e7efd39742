/**
 * Loaded with `node --import` into every process of the production-shape cluster: the movable
 * clock of the browser tests (a loopback port per process takes `POST /clock`), started at the
 * cluster's current offset so that a replaced process keeps the time the others have.
 */
import { installMovableClock } from '../e2e/movableClock.ts';

const port = Number(process.env.MOVABLE_CLOCK_PORT ?? 0);
if (port > 0) installMovableClock(port, Number(process.env.MOVABLE_CLOCK_OFFSET_MS ?? 0));
