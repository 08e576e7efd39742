import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';
import { type GradeLevel, normalizeSubjectName } from './gradeLevels.ts';

/**
 * A subject name is unique per level: it is claimed by appending to the stream named after
 * (level, normalised name), so two concurrent claims race on that stream's revision and one
 * loses. The holder is the subject that bears the name; a deactivated subject keeps its name.
 * The commands layer names the stream (a hash of `subjectNameKey`).
 */
export const subjectNameClaim = z.object({ subjectId: z.string(), at: z.string() });

export const subjectNameEvents = {
  SubjectNameReserved: eventType(subjectNameClaim, { describe: () => 'Subject name reserved at its level' }),
  SubjectNameReleased: eventType(subjectNameClaim, { describe: () => 'Subject name released at its level' }),
};

export type SubjectNameEvent = EventsOf<typeof subjectNameEvents>;

export interface SubjectNameState {
  heldBy: string | null;
}

export const initialSubjectNameState: SubjectNameState = { heldBy: null };

export const evolveSubjectName = (_state: SubjectNameState, event: SubjectNameEvent): SubjectNameState => ({
  heldBy: event.type === 'SubjectNameReserved' ? event.data.subjectId : null,
});

/** What makes two subjects the same: their level and their normalised name. */
export const subjectNameKey = (gradeLevel: GradeLevel, name: string) => `${gradeLevel}:${normalizeSubjectName(name)}`;
