/**
 * Operator CLI: `npm run -s ops -- <command> [--json]`. See ops/cli/program.ts for the commands.
 * Works with or without `npm start` running (ops/cli/connect.ts).
 */
import { run } from './cli/program.ts';

const code = await run(process.argv);
// Let stdout drain (a pipe may be asynchronous), then exit even if a library left a timer behind.
process.stdout.write('', () => process.exit(code));
