import { DomainError } from '../../domain/kit/decider.ts';
import { type GradeLevel, gradeLevelLabels, tidySubjectName } from '../../domain/subjects/gradeLevels.ts';
import type { SubjectEntry } from '../../domain/subjects/subject.ts';
import { SUBJECT_NOT_FOUND } from '../../domain/subjects/subjectDecider.ts';
import { subjectNameKey } from '../../domain/subjects/subjectName.ts';
import { type CommandContext, deterministicUuid } from '../kit/commandContext.ts';
import { compensating, stepOf } from '../kit/processStep.ts';
import { type SubjectHandlers, subjectNameStreamId } from './subjectHandlers.ts';

export interface SubjectInput {
  name: string;
  description?: string | null | undefined;
  category?: string | null | undefined;
  gradeLevel: GradeLevel;
}

const entryOf = (input: SubjectInput): SubjectEntry => ({
  name: input.name,
  description: input.description ?? null,
  category: input.category ?? null,
  gradeLevel: input.gradeLevel,
});

export const nameTakenMessage = (entry: Pick<SubjectEntry, 'name' | 'gradeLevel'>) =>
  `A subject named "${tidySubjectName(entry.name)}" already exists at ${gradeLevelLabels[entry.gradeLevel]}`;

/** Claims the entry's name at its level for the subject; the claim is given back when `next` fails. */
async function withNameClaimed<T>(
  handlers: SubjectHandlers,
  subjectId: string,
  entry: SubjectEntry,
  step: (name: string) => CommandContext,
  next: () => Promise<T>,
): Promise<T> {
  const stream = subjectNameStreamId(entry.gradeLevel, entry.name);
  await handlers.names.handle(
    stream,
    { type: 'ReserveSubjectName', data: { subjectId, takenMessage: nameTakenMessage(entry) } },
    step('reserve-name'),
  );
  return compensating(next, () => handlers.names.handle(stream, { type: 'ReleaseSubjectName', data: { subjectId } }, step('release-name')));
}

/**
 * Adding spans streams: claim the name at its level, then add the subject. The id derives from
 * the command id, so a retried request (or a re-run seed) lands on the same streams.
 */
export async function addSubject(handlers: SubjectHandlers, input: SubjectInput, ctx: CommandContext) {
  const subjectId = deterministicUuid(`subject/${ctx.commandId}`);
  const entry = entryOf(input);
  const step = stepOf(ctx);
  const result = await withNameClaimed(handlers, subjectId, entry, step, () =>
    handlers.subjects.handle(subjectId, { type: 'AddSubject', data: { subjectId, entry } }, step('add'), { expectNewStream: true }),
  );
  return { subjectId, position: result.position };
}

/**
 * An edit that renames the subject or moves it to another level claims the new name there
 * first, then edits (refused when the name changed since it was read: its claim would be the
 * wrong one), then gives the old name back.
 */
export async function editSubject(handlers: SubjectHandlers, subjectId: string, input: SubjectInput, ctx: CommandContext) {
  const current = (await handlers.subjects.load(subjectId)).entry;
  if (!current) throw new DomainError(SUBJECT_NOT_FOUND, 'not_found');
  const entry = entryOf(input);
  const claimedFrom = subjectNameKey(current.gradeLevel, current.name);
  const step = stepOf(ctx);
  const edit = () => handlers.subjects.handle(subjectId, { type: 'EditSubject', data: { subjectId, entry, claimedFrom } }, step('edit'));
  if (subjectNameKey(entry.gradeLevel, entry.name) === claimedFrom) return edit();
  const result = await withNameClaimed(handlers, subjectId, entry, step, edit);
  await handlers.names.handle(
    subjectNameStreamId(current.gradeLevel, current.name),
    { type: 'ReleaseSubjectName', data: { subjectId } },
    step('release-old-name'),
  );
  return result;
}

/** A deactivated subject is no longer listed; it keeps its name, so reactivating it cannot clash. */
export function setSubjectActive(handlers: SubjectHandlers, subjectId: string, active: boolean, ctx: CommandContext) {
  return handlers.subjects.handle(
    subjectId,
    active ? { type: 'ReactivateSubject', data: { subjectId } } : { type: 'DeactivateSubject', data: { subjectId } },
    ctx,
  );
}
