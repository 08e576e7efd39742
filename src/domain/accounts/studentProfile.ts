import { z } from 'zod';
import { type Decider, DomainError } from '../decider.ts';
import { defineEvent } from '../eventDefinition.ts';

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
export const secondaryLoginSet = z.object({
  studentId: z.string(),
  userId: z.string(),
  secondaryUsername: z.string(),
  secondaryPasswordHash: z.string(),
  at: z.string(),
});
export const studentProfileErased = z.object({ studentId: z.string(), userId: z.string(), at: z.string() });

export type StudentEvent =
  | { type: 'StudentProfileCreated'; data: z.infer<typeof studentProfileCreated> }
  | { type: 'SecondaryLoginSet'; data: z.infer<typeof secondaryLoginSet> }
  | { type: 'StudentProfileErased'; data: z.infer<typeof studentProfileErased> };

export type StudentCommand =
  | { type: 'CreateStudentProfile'; data: Omit<z.infer<typeof studentProfileCreated>, 'at'>; now: Date }
  | { type: 'SetSecondaryLogin'; studentId: string; secondaryUsername: string; secondaryPasswordHash: string; now: Date }
  | { type: 'EraseStudentProfile'; studentId: string; now: Date };

export interface StudentState {
  exists: boolean;
  erased: boolean;
  userId: string | null;
  secondaryPasswordHash: string | null;
}

export const studentDecider: Decider<StudentCommand, StudentEvent, StudentState> = {
  initialState: { exists: false, erased: false, userId: null, secondaryPasswordHash: null },
  evolve(state, event) {
    if (event.type === 'StudentProfileCreated') return { ...state, exists: true, erased: false, userId: event.data.userId };
    if (event.type === 'SecondaryLoginSet') return { ...state, secondaryPasswordHash: event.data.secondaryPasswordHash };
    if (event.type === 'StudentProfileErased') return { ...state, erased: true, secondaryPasswordHash: null };
    return state;
  },
  decide(command, state) {
    const at = command.now.toISOString();
    switch (command.type) {
      case 'CreateStudentProfile':
        if (state.exists) return [];
        return [{ type: 'StudentProfileCreated', data: { ...command.data, at } }];
      case 'SetSecondaryLogin':
        if (!state.exists || state.erased) throw new DomainError('Student not found', 404);
        return [
          {
            type: 'SecondaryLoginSet',
            data: {
              studentId: command.studentId,
              userId: state.userId as string,
              secondaryUsername: command.secondaryUsername,
              secondaryPasswordHash: command.secondaryPasswordHash,
              at,
            },
          },
        ];
      case 'EraseStudentProfile':
        if (!state.exists || state.erased) return [];
        return [{ type: 'StudentProfileErased', data: { studentId: command.studentId, userId: state.userId as string, at } }];
    }
  },
};

/** The student's personal data belongs to the account holder whose key seals it. */
const personOf = (d: { userId: string }) => `user-${d.userId}`;

export const studentEventCatalog = {
  StudentProfileCreated: defineEvent({
    schema: studentProfileCreated,
    personal: { fields: ['firstName', 'lastName'], subject: personOf },
    describe: (d: z.infer<typeof studentProfileCreated>) => `Student profile created (${d.grade})`,
  }),
  SecondaryLoginSet: defineEvent({
    schema: secondaryLoginSet,
    personal: { fields: ['secondaryUsername', 'secondaryPasswordHash'], subject: personOf },
    describe: () => 'Secondary (view-only) login set',
  }),
  StudentProfileErased: defineEvent({ schema: studentProfileErased, describe: () => 'Student profile erased' }),
};

export const studentStreamId = (studentId: string) => `student-${studentId}`;
