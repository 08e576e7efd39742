import { z } from 'zod';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';

export const studentProfileCreated = z.object({
  studentId: z.string(),
  userId: z.string(),
  parentId: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  grade: z.string(),
  isUniversityStudent: z.boolean(),
  schoolYearStartMonth: z.number().int().min(1).max(12).nullable(),
  at: z.string(),
});
export const studentAccountUpdated = z.object({
  studentId: z.string(),
  userId: z.string(),
  grade: z.string(),
  isUniversityStudent: z.boolean(),
  schoolYearStartMonth: z.number().int().min(1).max(12),
  at: z.string(),
});
export const secondaryLoginSet = z.object({
  studentId: z.string(),
  userId: z.string(),
  secondaryUsername: z.string(),
  secondaryPasswordHash: z.string(),
  at: z.string(),
});
export const studentProfileErased = z.object({ studentId: z.string(), userId: z.string(), at: z.string() });

/** The student's personal data belongs to the account holder whose key seals it. */
const personOf = (d: { userId: string }) => `user-${d.userId}`;

export const studentEvents = {
  StudentProfileCreated: eventType(studentProfileCreated, {
    personal: { fields: ['firstName', 'lastName'], subject: personOf },
    describe: (d) => `Student profile created (${d.grade})`,
  }),
  StudentAccountUpdated: eventType(studentAccountUpdated, {
    describe: (d) => `Grade set to ${d.grade}, school year starting in month ${d.schoolYearStartMonth}`,
  }),
  SecondaryLoginSet: eventType(secondaryLoginSet, {
    personal: { fields: ['secondaryUsername', 'secondaryPasswordHash'], subject: personOf },
    describe: () => 'Secondary (view-only) login set',
  }),
  StudentProfileErased: eventType(studentProfileErased, { describe: () => 'Student profile erased' }),
};

export type StudentEvent = EventsOf<typeof studentEvents>;

export interface StudentState {
  exists: boolean;
  erased: boolean;
  userId: string | null;
  parentId: string | null;
  secondaryUsername: string | null;
  secondaryPasswordHash: string | null;
}

export const initialStudentState: StudentState = {
  exists: false,
  erased: false,
  userId: null,
  parentId: null,
  secondaryUsername: null,
  secondaryPasswordHash: null,
};

export function evolveStudent(state: StudentState, event: StudentEvent): StudentState {
  switch (event.type) {
    case 'StudentProfileCreated':
      return { ...state, exists: true, erased: false, userId: event.data.userId, parentId: event.data.parentId };
    case 'StudentAccountUpdated':
      return state;
    case 'SecondaryLoginSet':
      return { ...state, secondaryUsername: event.data.secondaryUsername, secondaryPasswordHash: event.data.secondaryPasswordHash };
    case 'StudentProfileErased':
      return { ...state, erased: true, secondaryUsername: null, secondaryPasswordHash: null };
  }
}

export const studentStreamId = (studentId: string) => `student-${studentId}`;
