import { createServer } from 'node:http';
import type { Clock } from '../../src/adapters/clock/clock.ts';

/**
 * A clock a browser test can move (issue 11: the tutor completes a session once its start has
 * passed): the real time plus an offset. `at` null: back to the real time.
 */
export class MovableClock implements Clock {
  constructor(private offsetMs = 0) {}
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  moveTo(at: Date | null): void {
    this.offsetMs = at ? at.getTime() - Date.now() : 0;
  }
}

/**
 * The loopback port through which a browser test moves a server's clock: it takes
 * `POST /clock {"at": ISO | null}` and answers the clock's new time. It lives in the test server's
 * process only, so the product itself has no such route.
 */
export function listenForClockMoves(port: number, move: (at: Date | null) => Date): void {
  createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/clock') {
        response.writeHead(404).end();
        return;
      }
      const { at } = JSON.parse(body || '{}') as { at?: string | null };
      const now = move(at ? new Date(at) : null);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ now }));
    });
  }).listen(port, '127.0.0.1');
}

/**
 * The e2e server's clock: the system runs on it (SystemOptions.clock), so routes, commands and
 * sagas see the moved time; the global `Date` is untouched. PostgreSQL's own now() is not moved:
 * nothing a session's completion decides reads it.
 */
export function movableServerClock(port: number): MovableClock {
  const clock = new MovableClock();
  listenForClockMoves(port, (at) => {
    clock.moveTo(at);
    return clock.now();
  });
  return clock;
}

/**
 * The production-shape cluster's processes run `src/main.ts` as deployed, which takes no clock
 * from outside: there the global `Date` is still moved (every `new Date()` and `Date.now()` reads
 * the real time plus an offset; dates built from a value are untouched), and the system clock
 * follows it.
 */
export function installMovableClock(port: number, initialOffsetMs = 0): void {
  const RealDate = Date;
  let offsetMs = initialOffsetMs;
  function MovableDate(this: unknown, ...args: unknown[]): Date | string {
    const now = () => new RealDate(RealDate.now() + offsetMs);
    if (!new.target) return now().toString();
    return args.length === 0 ? now() : (Reflect.construct(RealDate, args, new.target) as Date);
  }
  MovableDate.prototype = RealDate.prototype;
  Object.setPrototypeOf(MovableDate, RealDate);
  Object.defineProperty(MovableDate, 'now', { value: () => RealDate.now() + offsetMs });
  globalThis.Date = MovableDate as unknown as DateConstructor;
  listenForClockMoves(port, (at) => {
    offsetMs = at ? at.getTime() - RealDate.now() : 0;
    return new RealDate(RealDate.now() + offsetMs);
  });
}
