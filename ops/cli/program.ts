import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { type Config, loadConfig } from '../../src/adapters/config/config.ts';
import { projectors } from '../../src/projections/projectors.ts';
import type { System } from '../../src/system.ts';
import { createAdmin } from './accounts.ts';
import { openSystem, opsLogger } from './connect.ts';
import { importFiles } from './files.ts';
import { listMail } from './mail.ts';
import { type CommandResult, EXIT_FAILED, EXIT_OK, EXIT_USAGE, OpsError, toJson, UsageError, writeErr, writeOut } from './output.ts';
import { defaultActor, listParked, projectionsStatus, rebuildProjections, retryParked, skipParked } from './projections.ts';
import { countEvents, listStreams, showStream } from './streams.ts';

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** Whether stderr is a terminal (a progress bar then, plain lines otherwise). */
  tty?: boolean;
}

interface JsonOption {
  json?: boolean;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive whole number');
  return n;
}

/** Where the CLI connects, without the password. */
function describeDatabase(config: Config): string {
  if (!config.DATABASE_URL) return `embedded PostgreSQL under ${config.DATA_DIR}`;
  try {
    const url = new URL(config.DATABASE_URL);
    url.password = '';
    return url.toString();
  } catch {
    return 'DATABASE_URL';
  }
}

/** Prints the failure: the message on stderr, and with --json also as the one document on stdout. */
function report(json: boolean, error: unknown): number {
  const exitCode = error instanceof OpsError ? error.exitCode : EXIT_FAILED;
  const message = error instanceof Error ? error.message : String(error);
  writeErr(`Error: ${message}`);
  if (!(error instanceof OpsError) && error instanceof Error && process.env.DEBUG && error.stack) writeErr(error.stack);
  if (json) writeOut(toJson({ error: { message, exitCode, ...(error instanceof OpsError ? error.detail : {}) } }));
  return exitCode;
}

/**
 * Runs one ops command; returns the exit code (0 success, 1 operational error, 2 usage error).
 * `argv` is process.argv (node, script, ...arguments).
 */
export async function run(argv: readonly string[], options: RunOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  const tty = options.tty ?? Boolean(process.stderr.isTTY);
  const jsonRequested = argv.slice(2).includes('--json');
  let exitCode = EXIT_OK;

  /** Opens the system, runs the command, prints its result, and always closes the system. */
  const execute = async (opts: JsonOption, handler: (system: System) => Promise<CommandResult>) => {
    const json = Boolean(opts.json);
    let config: Config;
    try {
      config = loadConfig(env);
    } catch (error) {
      exitCode = report(json, new OpsError(error instanceof Error ? error.message : String(error), EXIT_FAILED));
      return;
    }
    const log = opsLogger(config);
    let system: System | null = null;
    try {
      try {
        system = await openSystem(config, log);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new OpsError(`Cannot open the database (${describeDatabase(config)}): ${message}`);
      }
      const result = await handler(system);
      writeOut(json ? toJson(result.data) : result.text());
      exitCode = result.exitCode ?? EXIT_OK;
    } catch (error) {
      exitCode = report(json, error);
    } finally {
      if (system) {
        await system.close().catch((error: unknown) => log.warn({ error: String(error) }, 'closing the system failed'));
      }
    }
  };

  const program = new Command('npm run ops --');
  program
    .description('Topmark operator commands. Every command takes --json for one JSON document on stdout.')
    .exitOverride()
    .showSuggestionAfterError()
    .configureOutput({
      writeOut: (s) => process.stdout.write(s),
      writeErr: (s) => process.stderr.write(s),
    })
    .addHelpText(
      'after',
      '\nExit codes: 0 success, 1 operational error, 2 usage error.\nDatabase: DATABASE_URL, or the embedded PostgreSQL under DATA_DIR (default .data), also while `npm start` runs.',
    );

  program
    .command('streams:list')
    .description('list streams: id, category, revision (events - 1), last update')
    .option('--category <category>', 'only streams of this category (the part of the id before the first "-")')
    .option('--limit <n>', 'at most this many streams', positiveInt, 1000)
    .option('--json', 'print one JSON document')
    .action((opts: JsonOption & { category?: string; limit: number }) =>
      execute(opts, (system) => listStreams(system, { category: opts.category, limit: opts.limit })),
    );

  program
    .command('streams:show')
    .description('every event of a stream, with personal data still encrypted')
    .argument('<stream>', 'stream id, e.g. contact-<uuid>')
    .option('--json', 'print one JSON document')
    .action((stream: string, opts: JsonOption) => execute(opts, (system) => showStream(system, stream)));

  program
    .command('events:count')
    .description('number of events in the log, and per category')
    .option('--json', 'print one JSON document')
    .action((opts: JsonOption) => execute(opts, (system) => countEvents(system)));

  program
    .command('projections:status')
    .description('projectors and reactors: position, lag, rows, status, last error, rebuild progress')
    .option('--json', 'print one JSON document')
    .action((opts: JsonOption) => execute(opts, (system) => projectionsStatus(system)));

  program
    .command('projections:rebuild')
    .description('replay the whole log into fresh tables of a projector, then swap them in')
    .argument('[names...]', `projections to rebuild (${projectors.map((p) => p.name).join(', ')})`)
    .option('--all', 'rebuild every projector (reactors are never rebuilt)')
    .option('--json', 'print one JSON document')
    .action(async (names: string[], opts: JsonOption & { all?: boolean }) => {
      const all = Boolean(opts.all);
      if (all === names.length > 0) {
        exitCode = report(
          Boolean(opts.json),
          new UsageError(`Name the projections to rebuild, or use --all (projections: ${projectors.map((p) => p.name).join(', ')})`),
        );
        return;
      }
      await execute(opts, (system) => rebuildProjections(system, { names, all }, { tty }));
    });

  program
    .command('projections:parked')
    .description('events a projection could not apply and parked, with their errors (all projections, or one)')
    .argument('[name]', 'only this projection')
    .option('--skipped', 'also list the events operators skipped')
    .option('--json', 'print one JSON document')
    .action((name: string | undefined, opts: JsonOption & { skipped?: boolean }) =>
      execute(opts, (system) => listParked(system, name, { skipped: Boolean(opts.skipped) })),
    );

  program
    .command('projections:retry')
    .description("apply the parked events of an event's stream again, in order (after a fix); exit 1 if one fails again")
    .argument('<name>', 'projection')
    .argument('<eventId>', 'a parked event (its stream is retried from its first parked event)')
    .option('--json', 'print one JSON document')
    .action((name: string, eventId: string, opts: JsonOption) => execute(opts, (system) => retryParked(system, name, eventId)));

  program
    .command('projections:skip')
    .description('leave a parked event out of a projection for good (recorded as an event), then apply what waited behind it')
    .argument('<name>', 'projection')
    .argument('<eventId>', 'the parked event to skip')
    .requiredOption('--reason <text>', 'why it is skipped (kept in the log)')
    .option('--actor <name>', 'who decides (default: OPS_ACTOR, else the OS user)')
    .option('--json', 'print one JSON document')
    .action((name: string, eventId: string, opts: JsonOption & { reason: string; actor?: string }) =>
      execute(opts, (system) => skipParked(system, name, eventId, { reason: opts.reason, actor: opts.actor ?? defaultActor(env) })),
    );

  program
    .command('mail:list')
    .description('mail kept in the outbox (no SMTP_URL), newest first')
    .option('--to <address>', 'only mail to this address')
    .option('--limit <n>', 'at most this many mails', positiveInt, 50)
    .option('--json', 'print one JSON document')
    .action((opts: JsonOption & { to?: string; limit: number }) =>
      execute(opts, (system) => listMail(system, { to: opts.to, limit: opts.limit })),
    );

  program
    .command('files:import')
    .description(
      'move uploaded files an earlier release kept on disk into the database (a start with the embedded database does it itself)',
    )
    .option('--dir <dir>', 'the folder of files (default: DATA_DIR/files)')
    .option('--json', 'print one JSON document')
    .action((opts: JsonOption & { dir?: string }) => execute(opts, (system) => importFiles(system, { dir: opts.dir })));

  program
    .command('admin:create')
    .description('create a staff account (admin or finance) through the account commands')
    .requiredOption('--username <username>', 'sign-in name')
    .requiredOption('--email <email>', 'e-mail address')
    // The console names staff in the audit log and history: a person's own name, never a placeholder.
    .requiredOption('--first-name <name>', "the person's first name")
    .requiredOption('--last-name <name>', "the person's last name")
    .option('--password <password>', 'password (default: ADMIN_PASSWORD, else generated and printed)')
    .option('--role <role>', 'admin or finance', 'admin')
    .option('--json', 'print one JSON document')
    .action(
      (opts: JsonOption & { username: string; email: string; firstName: string; lastName: string; password?: string; role: string }) =>
        execute(opts, (system) => createAdmin(system, { ...opts, password: opts.password ?? env.ADMIN_PASSWORD })),
    );

  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help asked for: success. No command, unknown command or option, bad argument: usage error.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT_OK;
      if (error.code === 'commander.help' && error.exitCode === 0) return EXIT_OK;
      if (jsonRequested) writeOut(toJson({ error: { message: error.message.replace(/^error: /, ''), exitCode: EXIT_USAGE } }));
      return EXIT_USAGE;
    }
    return report(jsonRequested, error);
  }
  return exitCode;
}
