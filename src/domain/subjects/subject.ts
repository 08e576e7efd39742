import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';
import { type GradeLevel, gradeLevelLabels, gradeLevelSchema } from './gradeLevels.ts';

/** What a subject is (spec part 1 §3 "subjects"): the catalogue entry a package, course or tutor names. */
const subjectFields = {
  subjectId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** Groups subjects in lists (the tutor's subject editor shows null as "Other"). */
  category: z.string().nullable(),
  gradeLevel: gradeLevelSchema,
  at: z.string(),
};

export const subjectAdded = z.object(subjectFields);
/** An edit records the whole entry as it now is. */
export const subjectEdited = z.object(subjectFields);
export const subjectActivityChanged = z.object({ subjectId: z.string(), at: z.string() });

const described = (d: { name: string; gradeLevel: GradeLevel }) => `${d.name} (${gradeLevelLabels[d.gradeLevel]})`;

export const subjectEntryEvents = {
  SubjectAdded: eventType(subjectAdded, { describe: (d) => `Subject added: ${described(d)}` }),
  SubjectEdited: eventType(subjectEdited, { describe: (d) => `Subject edited: ${described(d)}` }),
  SubjectDeactivated: eventType(subjectActivityChanged, { describe: () => 'Subject deactivated' }),
  SubjectReactivated: eventType(subjectActivityChanged, { describe: () => 'Subject reactivated' }),
};

export type SubjectEvent = EventsOf<typeof subjectEntryEvents>;

export interface SubjectEntry {
  name: string;
  description: string | null;
  category: string | null;
  gradeLevel: GradeLevel;
}

export interface SubjectState {
  /** null until added. */
  entry: SubjectEntry | null;
  active: boolean;
}

export const initialSubjectState: SubjectState = { entry: null, active: false };

export function evolveSubject(state: SubjectState, event: SubjectEvent): SubjectState {
  switch (event.type) {
    case 'SubjectAdded':
    case 'SubjectEdited': {
      const { name, description, category, gradeLevel } = event.data;
      return { entry: { name, description, category, gradeLevel }, active: event.type === 'SubjectAdded' ? true : state.active };
    }
    case 'SubjectDeactivated':
      return { ...state, active: false };
    case 'SubjectReactivated':
      return { ...state, active: true };
  }
}

export const subjectStreamId = (subjectId: string) => `subject-${subjectId}`;
