import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import type { StudentEvent } from './student.ts';
import {
  ALREADY_ENROLLED,
  allowedGradeTiers,
  CHECKOUT_PENDING,
  ENROLLMENT_NOT_FOUND,
  GRADE_REQUIRED,
  GRADE_TIER_NOT_ALLOWED,
  STUDENT_NOT_FOUND,
  studentDecider,
  TOO_MANY_COURSES,
  TUTOR_SELECTION_PENDING,
} from './studentDecider.ts';

const now = new Date('2026-11-23T12:00:00.000Z');
const at = now.toISOString();
const metadata = { now };
const spec = deciderSpec(studentDecider);
const studentId = 's';
const created = (grade: string): StudentEvent => ({
  type: 'StudentProfileCreated',
  data: {
    studentId,
    userId: 'u',
    parentId: null,
    firstName: 'A',
    lastName: 'B',
    grade,
    isUniversityStudent: false,
    schoolYearStartMonth: null,
    at,
  },
});
const graded = created('Grade 9');
const claimed = (subjectId: string, purchaseId = `buy-${subjectId}`): StudentEvent => ({
  type: 'EnrollmentClaimed',
  data: { studentId, subjectId, purchaseId, gradeTierId: 'grade_10_under', at },
});
const confirmed = (subjectId: string, courseId = `course-${subjectId}`): StudentEvent => ({
  type: 'EnrollmentConfirmed',
  data: { studentId, subjectId, purchaseId: `buy-${subjectId}`, courseId, at },
});
const tutorChosen = (subjectId: string): StudentEvent => ({
  type: 'EnrolledCourseTutorChosen',
  data: { studentId, courseId: `course-${subjectId}`, at },
});
const claim = (subjectId: string, gradeTierId = 'grade_10_under', purchaseId = `buy-${subjectId}`) => ({
  type: 'ClaimEnrollment' as const,
  data: { studentId, subjectId, purchaseId, gradeTierId },
  metadata,
});
/** A course of the subject that has its tutor: it holds a slot but blocks nothing else. */
const underway = (subjectId: string) => [claimed(subjectId), confirmed(subjectId), tutorChosen(subjectId)];

describe('enrolment on the student stream', () => {
  it('claims a slot once per purchase', () => {
    spec
      .given([graded])
      .when(claim('math'))
      .thenEvents([claimed('math')]);
    spec
      .given([graded, claimed('math')])
      .when(claim('math'))
      .thenNothing();
    spec.given([]).when(claim('math')).thenThrows(STUDENT_NOT_FOUND, 'not_found');
  });

  it('needs a grade, and a tier the grade allows', () => {
    spec
      .given([created('')])
      .when(claim('math'))
      .thenThrows(GRADE_REQUIRED, 'unprocessable');
    spec
      .given([created('Grade 11')])
      .when(claim('math', 'grade_10_under'))
      .thenThrows(GRADE_TIER_NOT_ALLOWED, 'invalid');
    spec
      .given([
        created(''),
        {
          type: 'StudentAccountUpdated',
          data: { studentId, userId: 'u', grade: 'Grade 12', isUniversityStudent: false, schoolYearStartMonth: 9, at },
        },
      ])
      .when(claim('math', 'grade_11_12'))
      .thenEvents([{ ...claimed('math'), data: { ...claimed('math').data, gradeTierId: 'grade_11_12' } } as StudentEvent]);
    expect(allowedGradeTiers('Grade 6')).toEqual(['grade_10_under', 'grade_11_12', 'university']);
    expect(allowedGradeTiers('Grade 10')).toEqual(['grade_10_under', 'grade_11_12', 'university']);
    expect(allowedGradeTiers('Grade 11')).toEqual(['grade_11_12', 'university']);
    expect(allowedGradeTiers('University/College')).toEqual(['university']);
    expect(allowedGradeTiers('Grade 5')).toEqual([]);
  });

  it('refuses a subject already claimed, enrolled or active', () => {
    spec
      .given([graded, claimed('math', 'buy-1')])
      .when(claim('math', 'grade_10_under', 'buy-2'))
      .thenThrows(ALREADY_ENROLLED, 'conflict');
    spec
      .given([graded, ...underway('math')])
      .when(claim('math', 'grade_10_under', 'buy-2'))
      .thenThrows(ALREADY_ENROLLED, 'conflict');
  });

  it('refuses a new course while one awaits its tutor', () => {
    spec
      .given([graded, claimed('math'), confirmed('math')])
      .when(claim('art'))
      .thenThrows(TUTOR_SELECTION_PENDING, 'conflict');
    spec
      .given([graded, claimed('math'), confirmed('math'), tutorChosen('math')])
      .when(claim('art'))
      .thenEvents([claimed('art')]);
  });

  it('holds at most 4 courses, counting claims; an ended course or a released claim frees its slot', () => {
    const four = [graded, ...underway('a'), ...underway('b'), ...underway('c'), claimed('d')];
    spec.given(four).when(claim('e')).thenThrows(TOO_MANY_COURSES, 'conflict');
    spec
      .given([...four, { type: 'EnrollmentReleased', data: { studentId, purchaseId: 'buy-d', at } }])
      .when(claim('e'))
      .thenEvents([claimed('e')]);
    const fourCourses = [graded, ...underway('a'), ...underway('b'), ...underway('c'), ...underway('d')];
    spec.given(fourCourses).when(claim('e')).thenThrows(TOO_MANY_COURSES, 'conflict');
    spec
      .given([...fourCourses, { type: 'EnrolledCourseEnded', data: { studentId, courseId: 'course-a', at } }])
      .when(claim('e'))
      .thenEvents([claimed('e')]);
  });

  it('refuses a new course while a checkout is under way (it becomes a course awaiting its tutor once paid), until it is released', () => {
    spec
      .given([graded, claimed('math')])
      .when(claim('art'))
      .thenThrows(CHECKOUT_PENDING, 'conflict');
    spec
      .given([graded, ...underway('math'), claimed('science')])
      .when(claim('art'))
      .thenThrows(CHECKOUT_PENDING, 'conflict');
    spec
      .given([graded, claimed('math'), { type: 'EnrollmentReleased', data: { studentId, purchaseId: 'buy-math', at } }])
      .when(claim('art'))
      .thenEvents([claimed('art')]);
  });

  it('releases only a pending claim', () => {
    const release = { type: 'ReleaseEnrollment' as const, data: { studentId, purchaseId: 'buy-math' }, metadata };
    spec
      .given([graded, claimed('math')])
      .when(release)
      .thenEvents([{ type: 'EnrollmentReleased', data: { studentId, purchaseId: 'buy-math', at } }]);
    spec.given([graded]).when(release).thenNothing();
    spec
      .given([graded, claimed('math'), confirmed('math')])
      .when(release)
      .thenNothing();
  });

  it('confirms a claim once; a released claim needs the subject to be confirmed', () => {
    const confirm = { type: 'ConfirmEnrollment' as const, data: { studentId, purchaseId: 'buy-math', courseId: 'course-math' }, metadata };
    spec
      .given([graded, claimed('math')])
      .when(confirm)
      .thenEvents([confirmed('math')]);
    spec
      .given([graded, claimed('math'), confirmed('math')])
      .when(confirm)
      .thenNothing();
    spec.given([graded]).when(confirm).thenThrows(ENROLLMENT_NOT_FOUND, 'not_found');
    spec
      .given([graded])
      .when({ ...confirm, data: { ...confirm.data, subjectId: 'math' } })
      .thenEvents([confirmed('math')]);
  });

  it('records the tutor choice and the end of a course once', () => {
    const chosen = { type: 'RecordCourseTutorChosen' as const, data: { studentId, courseId: 'course-math' }, metadata };
    const ended = { type: 'RecordCourseEnded' as const, data: { studentId, courseId: 'course-math' }, metadata };
    spec
      .given([graded, claimed('math'), confirmed('math')])
      .when(chosen)
      .thenEvents([tutorChosen('math')]);
    spec
      .given([graded, ...underway('math')])
      .when(chosen)
      .thenNothing();
    spec.given([graded]).when(chosen).thenNothing();
    spec
      .given([graded, ...underway('math')])
      .when(ended)
      .thenEvents([{ type: 'EnrolledCourseEnded', data: { studentId, courseId: 'course-math', at } }]);
    spec.given([graded]).when(ended).thenNothing();
  });
});
