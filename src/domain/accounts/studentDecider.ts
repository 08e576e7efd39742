import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import type { DataOf } from '../kit/eventDefinition.ts';
import { evolveStudent, initialStudentState, type StudentEvent, type StudentState, type studentEvents } from './student.ts';

export type StudentCommand =
  | Command<'CreateStudentProfile', Omit<DataOf<typeof studentEvents, 'StudentProfileCreated'>, 'at'>>
  | Command<'UpdateStudentAccount', { studentId: string; grade: string; schoolYearStartMonth: number }>
  /** A null hash renames the login and keeps its password (there must be one). */
  | Command<'SetSecondaryLogin', { studentId: string; secondaryUsername: string; secondaryPasswordHash: string | null }>
  | Command<'EraseStudentProfile', { studentId: string }>
  | Command<'ClaimEnrollment', { studentId: string; subjectId: string; purchaseId: string; gradeTierId: string }>
  | Command<'ReleaseEnrollment', { studentId: string; purchaseId: string }>
  /** `subjectId` lets a course whose claim was already released (a late payment) still take its slot. */
  | Command<'ConfirmEnrollment', { studentId: string; purchaseId: string; courseId: string; subjectId?: string }>
  | Command<'RecordCourseTutorChosen', { studentId: string; courseId: string }>
  | Command<'RecordCourseEnded', { studentId: string; courseId: string }>;

export const STUDENT_NOT_FOUND = 'Student not found';
export const PASSWORD_REQUIRED = 'Password must be at least 6 characters long';

/** Spec part 2 §5 (enrolment rules). */
export const MAX_COURSES = 4;
export const TOO_MANY_COURSES = 'You can enrol in at most 4 courses';
export const ALREADY_ENROLLED = 'Already enrolled in this subject. Complete your current course before enrolling again.';
export const TUTOR_SELECTION_PENDING = 'Please select a tutor for your current course before enrolling in a new one';
export const GRADE_REQUIRED = 'Please set your grade first';
export const GRADE_TIER_NOT_ALLOWED = 'This package is not available for your grade';
/**
 * A checkout under way holds a slot that becomes a course awaiting its tutor once paid, so it
 * blocks the next enrolment as that course would (issue 23: concurrent checkouts for several
 * subjects must not yield several courses awaiting a tutor). It is released when the payment
 * fails, is cancelled, or is abandoned after the payment window.
 */
export const CHECKOUT_PENDING =
  'A checkout for another course is still under way. Please complete its payment, or try again once it expires (30 minutes after it started).';
export const ENROLLMENT_NOT_FOUND = 'Could not find your course enrollment. Please contact support.';

/** Spec part 2 §5: Grade 6–10 → tiers 1–3, Grade 11–12 → tiers 2–3, University/College → tier 3. */
export function allowedGradeTiers(grade: string): readonly string[] {
  if (grade === 'University/College') return ['university'];
  const n = Number(/^Grade (\d+)$/.exec(grade)?.[1]);
  if (n >= 6 && n <= 10) return ['grade_10_under', 'grade_11_12', 'university'];
  if (n === 11 || n === 12) return ['grade_11_12', 'university'];
  return [];
}

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

  ClaimEnrollment({ data, metadata: { now } }, state) {
    requireLive(state);
    if (state.enrollments.some((e) => e.purchaseId === data.purchaseId)) return [];
    if (!state.grade) throw new DomainError(GRADE_REQUIRED, 'unprocessable');
    if (!allowedGradeTiers(state.grade).includes(data.gradeTierId)) throw new DomainError(GRADE_TIER_NOT_ALLOWED, 'invalid');
    if (state.enrollments.some((e) => e.subjectId === data.subjectId)) throw new DomainError(ALREADY_ENROLLED, 'conflict');
    if (state.enrollments.some((e) => e.status === 'awaitingTutor')) throw new DomainError(TUTOR_SELECTION_PENDING, 'conflict');
    if (state.enrollments.length >= MAX_COURSES) throw new DomainError(TOO_MANY_COURSES, 'conflict');
    if (state.enrollments.some((e) => e.status === 'claimed')) throw new DomainError(CHECKOUT_PENDING, 'conflict');
    return [{ type: 'EnrollmentClaimed', data: { ...data, at: now.toISOString() } }];
  },
  ReleaseEnrollment({ data, metadata: { now } }, state) {
    const slot = state.enrollments.find((e) => e.purchaseId === data.purchaseId);
    if (slot?.status !== 'claimed') return [];
    return [{ type: 'EnrollmentReleased', data: { studentId: data.studentId, purchaseId: data.purchaseId, at: now.toISOString() } }];
  },
  ConfirmEnrollment({ data, metadata: { now } }, state) {
    requireLive(state);
    const slot = state.enrollments.find((e) => e.purchaseId === data.purchaseId);
    if (slot && slot.status !== 'claimed') return [];
    const subjectId = slot?.subjectId ?? data.subjectId;
    if (!subjectId) throw new DomainError(ENROLLMENT_NOT_FOUND, 'not_found');
    const { studentId, purchaseId, courseId } = data;
    return [{ type: 'EnrollmentConfirmed', data: { studentId, subjectId, purchaseId, courseId, at: now.toISOString() } }];
  },
  RecordCourseTutorChosen({ data, metadata: { now } }, state) {
    const slot = state.enrollments.find((e) => e.courseId === data.courseId);
    if (slot?.status !== 'awaitingTutor') return [];
    return [{ type: 'EnrolledCourseTutorChosen', data: { ...data, at: now.toISOString() } }];
  },
  RecordCourseEnded({ data, metadata: { now } }, state) {
    if (!state.enrollments.some((e) => e.courseId === data.courseId)) return [];
    return [{ type: 'EnrolledCourseEnded', data: { ...data, at: now.toISOString() } }];
  },
});

export const studentDecider: Decider<StudentCommand, StudentEvent, StudentState> = {
  initialState: initialStudentState,
  evolve: evolveStudent,
  decide: decideStudent,
};
