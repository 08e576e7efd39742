import type { Sql } from '../../adapters/db/db.ts';
import type { Qualification } from '../../domain/subjects/qualifications.ts';
import { listSubjects } from '../../projections/subjects/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import type { TutorHandlers } from './tutorHandlers.ts';

/**
 * The tutor saves what they teach. The subjects on offer now (the active catalogue, a read-model
 * fact) go with the command: the decider refuses others and adds the subjects the chosen ones imply.
 */
export async function setQualifications(
  handlers: Pick<TutorHandlers, 'tutors'>,
  sql: Sql,
  tutorId: string,
  qualifications: Qualification[],
  ctx: CommandContext,
) {
  const catalog = (await listSubjects(sql)).map((s) => ({ id: s.id, name: s.name }));
  return handlers.tutors.handle(tutorId, { type: 'SetQualifications', data: { tutorId, qualifications, catalog } }, ctx);
}
