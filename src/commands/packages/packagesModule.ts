import type { Sql } from '../../adapters/db/db.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { PACKAGE_NOT_FOUND } from '../../domain/packages/package.ts';
import { findPackage, listPackages, type PackageView } from '../../projections/packages/queries.ts';

/** A package as the public API shows it (the cents stay for the server's own arithmetic). */
const publicView = ({ id, name, sessionCount, totalPrice, gradeTier }: PackageView) => ({ id, name, sessionCount, totalPrice, gradeTier });

/**
 * The session packages feature (public reads; packages are seeded, not edited over HTTP), built
 * once by system.ts: the active packages and one package, from the packages read model.
 */
export function packagesModule({ sql }: { sql: Sql }) {
  return {
    /** The active packages with their prices in dollars. */
    list: async () => (await listPackages(sql)).map(publicView),

    /** One active package; a 404 when unknown. */
    async package(packageId: string) {
      const found = await findPackage(sql, packageId);
      if (!found) throw new DomainError(PACKAGE_NOT_FOUND, 'not_found');
      return publicView(found);
    },
  };
}

export type PackagesModule = ReturnType<typeof packagesModule>;
