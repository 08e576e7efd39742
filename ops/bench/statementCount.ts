import { Socket } from 'node:net';

interface Parser {
  /** Bytes of the current message's body still to skip. */
  skip: number;
  /** The header read so far (type byte and length, or only the length before the startup). */
  head: number[];
  /** Before the startup message (and an SSL or GSS request before it): messages have no type byte. */
  untyped: boolean;
}

const Q = 0x51; // Query: a simple-protocol statement (text, no parameters)
const E = 0x45; // Execute: runs a parsed and bound statement of the extended protocol

/**
 * Counts the statements this process sends to the PostgreSQL server on `port`, as they leave on
 * the wire: every frontend Query ('Q') and Execute ('E') message, whichever client library sends
 * it (postgres.js for the system, node-postgres for the job queue). Only the message headers are
 * read (type and length), so it costs the process next to nothing. A simple query holding several
 * statements counts once; statements PostgreSQL runs on its own (foreign-key checks, triggers)
 * are not seen. Used where pg_stat_statements is not loaded by the server. Only connections opened
 * after it starts and whose startup message names `database`; plain TCP only (the local server is
 * reached without TLS).
 */
export function countStatementsOnTheWire(port: number, database: string): { count(): number; stop(): void } {
  // A connection is counted when its first message, the startup, names the database.
  const startup = Buffer.from(`\0database\0${database}\0`);
  const parsers = new WeakMap<Socket, Parser | null>();
  let statements = 0;
  /** A message's header is complete: count it, and skip its body. */
  const headerRead = (p: Parser) => {
    const at = p.untyped ? 0 : 1;
    const h = p.head;
    const length = (((h[at] as number) << 24) | ((h[at + 1] as number) << 16) | ((h[at + 2] as number) << 8) | (h[at + 3] as number)) >>> 0;
    if (!p.untyped && (h[0] === Q || h[0] === E)) statements++;
    // An SSL, GSS or cancel request is 8 or 16 bytes and is followed by the startup message;
    // the startup message is longer (it names the user).
    if (p.untyped && length > 16) p.untyped = false;
    p.skip = length - 4;
    p.head = [];
  };
  const feed = (p: Parser, buf: Uint8Array) => {
    let i = 0;
    while (i < buf.length) {
      if (p.skip > 0) {
        const n = Math.min(p.skip, buf.length - i);
        p.skip -= n;
        i += n;
        continue;
      }
      const need = p.untyped ? 4 : 5;
      while (p.head.length < need && i < buf.length) p.head.push(buf[i++] as number);
      if (p.head.length < need) return;
      headerRead(p);
    }
  };
  const original = Socket.prototype.write;
  const counting = function (this: Socket, chunk: unknown, ...rest: unknown[]) {
    let parser = parsers.get(this);
    if (parser === undefined && this.remotePort !== undefined) {
      const first = chunk instanceof Uint8Array ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) : null;
      parser = this.remotePort === port && first?.includes(startup) ? { skip: 0, head: [], untyped: true } : null;
      parsers.set(this, parser);
    }
    if (parser) {
      if (chunk instanceof Uint8Array) feed(parser, chunk);
      else if (typeof chunk === 'string')
        feed(parser, Buffer.from(chunk, typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : 'utf8'));
    }
    return (original as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  };
  Socket.prototype.write = counting as typeof Socket.prototype.write;
  return {
    count: () => statements,
    stop: () => {
      if (Socket.prototype.write === (counting as unknown)) Socket.prototype.write = original;
    },
  };
}
