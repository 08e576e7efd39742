import { createServer } from 'node:http';

/**
 * The e2e server's clock, movable by a browser test (issue 11: the tutor completes a session once
 * its start has passed). Every `new Date()` and `Date.now()` of the server process reads the real
 * time plus an offset; dates built from a value are untouched. A second loopback port takes
 * `POST /clock {"at": ISO | null}` (null: back to the real time), so the product itself has no such
 * route. PostgreSQL's own now() is not moved: nothing a session's completion decides reads it.
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
      offsetMs = at ? RealDate.parse(at) - RealDate.now() : 0;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ now: new RealDate(RealDate.now() + offsetMs) }));
    });
  }).listen(port, '127.0.0.1');
}
