import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestSystem, type TestSystem } from '../../../tests/support/system.ts';
import { claimEnrollment, confirmEnrollment } from '../../commands/accounts/enrollment.ts';
import { registerAccount } from '../../commands/accounts/registerUser.ts';
import { courseHandlers, courseIdForPurchase, enrollCourse } from '../../commands/courses/courseHandlers.ts';
import { commandContext } from '../../commands/kit/commandContext.ts';
import { TUTOR_SELECTION_PENDING } from '../../domain/accounts/studentDecider.ts';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem('all');
});
afterAll(async () => system.dispose());

const ctx = () => commandContext({ actorId: 'test', actorRole: 'system', now: system.clock.now() });

describe('a course keeps its student’s enrolment slots in step', () => {
  it('frees the slot when the tutor is chosen on the course alone (a request that died between the two streams)', async () => {
    const { studentId } = await registerAccount(
      system.accounts,
      {
        username: 'sync-student',
        email: 'sync-student@example.com',
        firstName: 'Sy',
        lastName: 'Nc',
        password: 'secret123',
        role: 'student',
        phone: null,
        authProvider: 'local',
        googleId: null,
        emailVerified: true,
        termsAccepted: { version: '1.0', ip: null },
        student: { grade: 'Grade 10', isUniversityStudent: false },
      },
      commandContext({ now: system.clock.now() }),
    );
    if (!studentId) throw new Error('no student profile');
    const purchaseId = 'purchase-sync-1';
    await claimEnrollment(
      system.accounts.handlers,
      { studentId, subjectId: 'subject-math', purchaseId, gradeTierId: 'grade_10_under' },
      ctx(),
    );
    const courseId = courseIdForPurchase(purchaseId);
    const courses = courseHandlers(system.store);
    await enrollCourse(courses, { courseId, studentId, subjectId: 'subject-math', packageId: 'package-4', purchaseId, credits: 4 }, ctx());
    await confirmEnrollment(system.accounts.handlers, { studentId, purchaseId, courseId }, ctx());

    const claimBiology = () =>
      claimEnrollment(
        system.accounts.handlers,
        { studentId, subjectId: 'subject-biology', purchaseId: 'purchase-sync-2', gradeTierId: 'grade_10_under' },
        ctx(),
      );
    await expect(claimBiology()).rejects.toThrow(TUTOR_SELECTION_PENDING);

    // Only the course records the choice: the saga brings the student's stream along.
    await courses.courses.handle(
      courseId,
      { type: 'ChooseCourseTutor', data: { courseId, tutorId: 'tutor-1', tutorQualified: true } },
      ctx(),
    );
    await vi.waitFor(claimBiology, { timeout: 30_000, interval: 250 });
    const studentEvents = await system.store.readStream(`student-${studentId}`);
    expect(studentEvents.filter((e) => e.type === 'EnrolledCourseTutorChosen')).toHaveLength(1);
  });
});
