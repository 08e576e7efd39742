import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import type { DataOf } from '../kit/eventDefinition.ts';
import { evolveStudent, initialStudentState, type StudentEvent, type StudentState, type studentEvents } from './student.ts';

export type StudentCommand =
  | Command<'CreateStudentProfile', Omit<DataOf<typeof studentEvents, 'StudentProfileCreated'>, 'at'>>
  | Command<'UpdateStudentAccount', { studentId: string; grade: string; schoolYearStartMonth: number }>
  /** A null hash renames the login and keeps its password (there must be one). */
  | Command<'SetSecondaryLogin', { studentId: string; secondaryUsername: string; secondaryPasswordHash: string | null }>
  | Command<'EraseStudentProfile', { studentId: string }>;

export const STUDENT_NOT_FOUND = 'Student not found';
export const PASSWORD_REQUIRED = 'Password must be at least 6 characters long';

function requireLive(state: StudentState): asserts state is StudentState & { userId: string } {
  if (!state.exists || state.erased || !state.userId) throw new DomainError(STUDENT_NOT_FOUND, 'not_found');
}

export const decideStudent = decideWith<StudentCommand, StudentEvent, StudentState>({
  CreateStudentProfile({ data, metadata: { now } }, state) {
    if (state.exists) return [];
    return [{ type: 'StudentProfileCreated', data: { ...data, at: now.toISOString() } }];
  },
  UpdateStudentAccount({ data, metadata: { now } }, state) {
    requireLive(state);
    const isUniversityStudent = data.grade === 'University/College';
    return [{ type: 'StudentAccountUpdated', data: { ...data, userId: state.userId, isUniversityStudent, at: now.toISOString() } }];
  },
  SetSecondaryLogin({ data, metadata: { now } }, state) {
    requireLive(state);
    const secondaryPasswordHash = data.secondaryPasswordHash ?? state.secondaryPasswordHash;
    if (!secondaryPasswordHash) throw new DomainError(PASSWORD_REQUIRED, 'invalid');
    return [{ type: 'SecondaryLoginSet', data: { ...data, secondaryPasswordHash, userId: state.userId, at: now.toISOString() } }];
  },
  EraseStudentProfile({ data, metadata: { now } }, state) {
    if (!state.exists || state.erased || !state.userId) return [];
    return [{ type: 'StudentProfileErased', data: { studentId: data.studentId, userId: state.userId, at: now.toISOString() } }];
  },
});

export const studentDecider: Decider<StudentCommand, StudentEvent, StudentState> = {
  initialState: initialStudentState,
  evolve: evolveStudent,
  decide: decideStudent,
};
