import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { SUBJECT_NOT_FOUND } from '../../domain/subjects/subjectDecider.ts';
import { findSubject, listGradeTiers, listSubjects, type SubjectView } from '../../projections/subjects/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { addSubject, editSubject, type SubjectInput, setSubjectActive } from './manageSubjects.ts';
import { subjectHandlers } from './subjectHandlers.ts';

const publicView = ({ id, name, description, category, gradeLevel }: SubjectView) => ({ id, name, description, category, gradeLevel });

/** Subject ids are UUIDs: anything else is unknown without asking the database (NUL bytes included). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function knownId(id: string): string {
  if (!UUID.test(id)) throw new DomainError(SUBJECT_NOT_FOUND, 'not_found');
  return id;
}

/**
 * The subject catalogue feature, built once by system.ts: the public reads (active subjects, one
 * subject, the grade tiers), the admin's whole list, and the admin's commands (add, edit,
 * deactivate, reactivate), each answering the subject's id and the position to wait for.
 */
export function subjectsModule({ sql, store }: { sql: Sql; store: EventStore }) {
  const handlers = subjectHandlers(store);
  const subject = async (subjectId: string) => {
    const found = await findSubject(sql, knownId(subjectId));
    if (!found) throw new DomainError(SUBJECT_NOT_FOUND, 'not_found');
    return found;
  };

  return {
    /** The active subjects as the public catalogue shows them. */
    list: async () => (await listSubjects(sql)).map(publicView),
    /** One subject (also a deactivated one); a 404 for an unknown id. */
    publicSubject: async (subjectId: string) => publicView(await subject(subjectId)),
    /** The grade tiers with their base price per session. */
    gradeTiers: () => listGradeTiers(sql),
    /** The whole catalogue, deactivated subjects included. */
    adminList: () => listSubjects(sql, { includeInactive: true }),
    /** One subject as the admin's list shows it (after the write's read-your-writes); a 404 when it is not there. */
    adminSubject: subject,

    add: (input: SubjectInput, ctx: CommandContext) => addSubject(handlers, input, ctx),
    async edit(subjectId: string, input: SubjectInput, ctx: CommandContext) {
      const { position } = await editSubject(handlers, knownId(subjectId), input, ctx);
      return { subjectId, position };
    },
    async setActive(subjectId: string, active: boolean, ctx: CommandContext) {
      const { position } = await setSubjectActive(handlers, knownId(subjectId), active, ctx);
      return { subjectId, position };
    },
  };
}

export type SubjectsModule = ReturnType<typeof subjectsModule>;
