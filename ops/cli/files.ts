import path from 'node:path';
import { importLocalFiles } from '../../src/adapters/files/importLocalFiles.ts';
import { PostgresFileStorage } from '../../src/adapters/files/postgresFileStorage.ts';
import type { System } from '../../src/system.ts';
import { type CommandResult, EXIT_FAILED } from './output.ts';

/**
 * Moves the files an earlier release kept on disk (default `DATA_DIR/files`) into the database's
 * file storage: what a server start does by itself on an embedded install, for an install that ran
 * with DATABASE_URL and kept its DATA_DIR. Keys the table holds already keep the table's bytes;
 * moved files leave the disk. Exit 1 when some files could not be moved (listed).
 */
export async function importFiles(system: System, options: { dir?: string }): Promise<CommandResult> {
  const dir = path.resolve(options.dir ?? path.join(system.config.DATA_DIR, 'files'));
  const result = await importLocalFiles(dir, new PostgresFileStorage(system.sql));
  return {
    data: { dir, ...result },
    exitCode: result.leftOnDisk.length > 0 ? EXIT_FAILED : undefined,
    text: () =>
      [
        `${dir}: ${result.imported} file(s) stored in the database, ${result.alreadyStored} already there (the database's copy kept).`,
        ...(result.leftOnDisk.length > 0
          ? [
              `${result.leftOnDisk.length} file(s) left on disk (not a file key, or over 5 MiB):`,
              ...result.leftOnDisk.map((key) => `  ${key}`),
            ]
          : []),
      ].join('\n'),
  };
}
