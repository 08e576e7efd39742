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
/** A checkout holds one of the student's course slots for a subject until its payment settles. */
export const enrollmentClaimed = z.object({
  studentId: z.string(),
  subjectId: z.string(),
  purchaseId: z.string(),
  gradeTierId: z.string(),
  at: z.string(),
});
/** The payment failed or was abandoned: the slot is free again. */
export const enrollmentReleased = z.object({ studentId: z.string(), purchaseId: z.string(), at: z.string() });
/** The course was created: the claim is now a course awaiting a tutor. */
export const enrollmentConfirmed = z.object({
  studentId: z.string(),
  subjectId: z.string(),
  purchaseId: z.string(),
  courseId: z.string(),
  at: z.string(),
});
const enrolledCourseRef = z.object({ studentId: z.string(), courseId: z.string(), at: z.string() });

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
  EnrollmentClaimed: eventType(enrollmentClaimed, { describe: (d) => `Course slot claimed for a purchase (${d.gradeTierId})` }),
  EnrollmentReleased: eventType(enrollmentReleased, { describe: () => 'Course slot released (payment not completed)' }),
  EnrollmentConfirmed: eventType(enrollmentConfirmed, { describe: () => 'Course created for the claimed slot' }),
  EnrolledCourseTutorChosen: eventType(enrolledCourseRef, { describe: () => 'Tutor chosen for an enrolled course' }),
  EnrolledCourseEnded: eventType(enrolledCourseRef, { describe: () => 'Enrolled course ended: its slot is free' }),
};

export type StudentEvent = EventsOf<typeof studentEvents>;

/**
 * One of the student's course slots: `claimed` (checkout under way), `awaitingTutor` (course
 * created, no tutor yet), `underway` (tutor chosen). An ended course or a released claim frees it.
 */
export interface EnrollmentSlot {
  purchaseId: string;
  subjectId: string;
  courseId: string | null;
  status: 'claimed' | 'awaitingTutor' | 'underway';
}

export interface StudentState {
  exists: boolean;
  /** '' until the student sets one. */
  grade: string;
  enrollments: EnrollmentSlot[];
  erased: boolean;
  userId: string | null;
  parentId: string | null;
  secondaryUsername: string | null;
  secondaryPasswordHash: string | null;
}

export const initialStudentState: StudentState = {
  exists: false,
  grade: '',
  enrollments: [],
  erased: false,
  userId: null,
  parentId: null,
  secondaryUsername: null,
  secondaryPasswordHash: null,
};

export function evolveStudent(state: StudentState, event: StudentEvent): StudentState {
  switch (event.type) {
    case 'StudentProfileCreated':
      return {
        ...state,
        exists: true,
        erased: false,
        userId: event.data.userId,
        parentId: event.data.parentId,
        grade: event.data.grade,
      };
    case 'StudentAccountUpdated':
      return { ...state, grade: event.data.grade };
    case 'SecondaryLoginSet':
      return { ...state, secondaryUsername: event.data.secondaryUsername, secondaryPasswordHash: event.data.secondaryPasswordHash };
    case 'StudentProfileErased':
      return { ...state, erased: true, secondaryUsername: null, secondaryPasswordHash: null };
    case 'EnrollmentClaimed':
      return {
        ...state,
        enrollments: [
          ...state.enrollments,
          { purchaseId: event.data.purchaseId, subjectId: event.data.subjectId, courseId: null, status: 'claimed' },
        ],
      };
    case 'EnrollmentReleased':
      return { ...state, enrollments: state.enrollments.filter((e) => e.purchaseId !== event.data.purchaseId) };
    case 'EnrollmentConfirmed': {
      const slot: EnrollmentSlot = {
        purchaseId: event.data.purchaseId,
        subjectId: event.data.subjectId,
        courseId: event.data.courseId,
        status: 'awaitingTutor',
      };
      return { ...state, enrollments: [...state.enrollments.filter((e) => e.purchaseId !== event.data.purchaseId), slot] };
    }
    case 'EnrolledCourseTutorChosen':
      return {
        ...state,
        enrollments: state.enrollments.map((e) => (e.courseId === event.data.courseId ? { ...e, status: 'underway' } : e)),
      };
    case 'EnrolledCourseEnded':
      return { ...state, enrollments: state.enrollments.filter((e) => e.courseId !== event.data.courseId) };
  }
}

export const studentStreamId = (studentId: string) => `student-${studentId}`;
