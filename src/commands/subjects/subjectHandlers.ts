import { createHash } from 'node:crypto';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import type { GradeLevel } from '../../domain/subjects/gradeLevels.ts';
import { gradeTierStreamId } from '../../domain/subjects/gradeTier.ts';
import { gradeTierDecider } from '../../domain/subjects/gradeTierDecider.ts';
import { subjectStreamId } from '../../domain/subjects/subject.ts';
import { subjectDecider } from '../../domain/subjects/subjectDecider.ts';
import { subjectNameKey } from '../../domain/subjects/subjectName.ts';
import { subjectNameDecider } from '../../domain/subjects/subjectNameDecider.ts';
import { commandHandler } from '../kit/handleCommand.ts';

/** The command handlers of the subjects feature, one per aggregate. */
export function subjectHandlers(store: EventStore) {
  return {
    subjects: commandHandler(store, subjectDecider, subjectStreamId),
    names: commandHandler(store, subjectNameDecider, (id) => id),
    gradeTiers: commandHandler(store, gradeTierDecider, gradeTierStreamId),
  };
}
export type SubjectHandlers = ReturnType<typeof subjectHandlers>;

/** The reservation stream of a name at a level, named by a hash of the normalised pair. */
export const subjectNameStreamId = (gradeLevel: GradeLevel, name: string) =>
  `subjectNameReservation-${createHash('sha256').update(subjectNameKey(gradeLevel, name)).digest('hex').slice(0, 40)}`;
