import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, type TestSystem } from '../../../tests/support/system.ts';
import { catalogSubjects } from '../../domain/subjects/catalog.ts';
import { subjectNameKey } from '../../domain/subjects/subjectName.ts';
import { commandContext, deterministicUuid } from '../kit/commandContext.ts';
import { addSubject, editSubject, setSubjectActive } from './manageSubjects.ts';
import { seedSubjectCatalog } from './seedCatalog.ts';
import { subjectHandlers } from './subjectHandlers.ts';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem('cli');
});
afterAll(async () => system.dispose());

const eventCount = async () => Number((await system.sql<{ n: bigint }[]>`SELECT count(*) AS n FROM es_events`)[0]?.n);
const subjectStreams = async () => (await system.store.listStreams({ category: 'subject', limit: 1000 })).length;

describe('seeding the subject catalogue', () => {
  it('skips a seed subject whose name an admin gave another subject at that level, and seeds the rest', async () => {
    const handlers = subjectHandlers(system.store);
    await addSubject(
      handlers,
      { name: 'FUNCTIONS', gradeLevel: 'grade_10_under' },
      commandContext({ actorRole: 'admin', now: system.clock.now() }),
    );
    const warnings: string[] = [];
    await seedSubjectCatalog(system, (m) => warnings.push(m));
    expect(warnings).toEqual(['Catalogue seed: subject Functions skipped: A subject named "Functions" already exists at Grade 10 & Under']);
    expect(await subjectStreams()).toBe(catalogSubjects.length);
  });

  it('appends nothing when run again, and leaves what an admin changed since as it is', async () => {
    const handlers = subjectHandlers(system.store);
    // The id a seed subject gets: from its fixed command id.
    const seedId = (name: string, level: 'grade_11_12' | 'university') =>
      deterministicUuid(`subject/${deterministicUuid(`subject-catalog-seed/subject/${subjectNameKey(level, name)}`)}`);
    const physics = seedId('Physics (Grade 11-12)', 'grade_11_12');
    await editSubject(
      handlers,
      physics,
      { name: 'Physics 12', gradeLevel: 'grade_11_12' },
      commandContext({ actorRole: 'admin', now: system.clock.now() }),
    );
    await setSubjectActive(
      handlers,
      seedId('Finance (University/College)', 'university'),
      false,
      commandContext({ actorRole: 'admin', now: system.clock.now() }),
    );
    const before = await eventCount();
    await seedSubjectCatalog(system);
    expect(await eventCount()).toBe(before);
    expect((await handlers.subjects.load(physics)).entry?.name).toBe('Physics 12');
    expect((await handlers.subjects.load(seedId('Finance (University/College)', 'university'))).active).toBe(false);
  });
});
