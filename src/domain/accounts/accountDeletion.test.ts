import { describe, expect, it } from 'vitest';
import { userRegistered } from '../../../tests/support/accountEvents.ts';
import { stepsAfter } from '../kit/workflow.ts';
import { accountDeletionWorkflow } from './accountDeletion.ts';
import type { StudentEvent } from './student.ts';
import type { UserEvent } from './user.ts';

const at = '2026-11-20T12:00:00.000Z';
const workflow = accountDeletionWorkflow((kind, value) => `${kind}Reservation-${value.toLowerCase()}`);
const registered = userRegistered('u', at, {
  username: 'Ann',
  passwordHash: null,
  timezone: 'UTC',
  emailVerified: true,
  termsAcceptedAt: null,
  termsAcceptedVersion: null,
});
const profile: StudentEvent = {
  type: 'StudentProfileCreated',
  data: {
    studentId: 's',
    userId: 'u',
    parentId: null,
    firstName: 'Ann',
    lastName: 'Lee',
    grade: 'Grade 9',
    isUniversityStudent: false,
    schoolYearStartMonth: null,
    at,
  },
};
const viewer: StudentEvent = {
  type: 'SecondaryLoginSet',
  data: { studentId: 's', userId: 'u', secondaryUsername: 'Viewer', secondaryPasswordHash: 'h', at },
};
const deleted: UserEvent = { type: 'AccountDeleted', data: { userId: 'u', contactIds: ['c2'], at } };

describe('account deletion workflow', () => {
  it('erases, gives back and shreds everything the log says the account holds, the key last', () => {
    const steps = stepsAfter(
      workflow,
      [
        registered,
        profile,
        viewer,
        {
          type: 'ContactMessageReceived',
          data: { contactId: 'c1', name: 'n', email: 'e', phone: null, subject: 's', message: 'm', senderUserId: 'u', receivedAt: at },
        },
      ],
      deleted,
    );
    expect(steps.map((s) => s.step)).toEqual([
      'erase-student-s',
      'release-secondary-s',
      'erase-contact-c1',
      'shred-contact-c1',
      'erase-contact-c2',
      'shred-contact-c2',
      'release-username',
      'release-email',
      'delete-files',
      'shred-account',
    ]);
    expect(steps.find((s) => s.step === 'release-secondary-s')).toMatchObject({
      id: 'usernameReservation-viewer',
      command: { data: { holderId: 'secondaryLogin-s' } },
    });
    expect(steps.find((s) => s.step === 'release-email')).toMatchObject({
      id: 'emailReservation-ann@example.com',
      command: { data: { holderId: 'user-u' } },
    });
  });

  it('takes no step before the deletion, and forgets a finished instance', () => {
    expect(stepsAfter(workflow, [registered], profile)).toEqual([]);
    const state = [registered, profile, deleted].reduce(workflow.evolve, workflow.initialState);
    expect(workflow.isFinished(state)).toBe(true);
    expect(workflow.instanceOf(deleted)).toBe('u');
  });

  it('cancels each session of the account (booked in the log or named by the deletion) and clears its calendar, before the key goes', () => {
    const booking = (sessionId: string, studentUserId: string) => ({
      type: 'SessionBooked' as const,
      data: {
        sessionId,
        tutorId: 't',
        studentId: 's',
        studentUserId,
        courseId: 'c',
        subjectId: 'math',
        subjectName: 'Math',
        start: at,
        end: at,
        durationMinutes: 60,
        notes: 'n',
        bookedBy: studentUserId,
        bookedByRole: 'student',
        tutorTimeZone: 'UTC',
        studentTimeZone: 'UTC',
        at,
      },
    });
    expect(workflow.instanceOf(booking('x', 'u'))).toBe('u');
    const steps = stepsAfter(workflow, [registered, booking('b1', 'u')], {
      type: 'AccountDeleted',
      data: { userId: 'u', contactIds: [], sessionIds: ['b1', 'b0'], at },
    });
    const names = steps.map((s) => s.step);
    expect(names).toEqual(expect.arrayContaining(['cancel-session-b1', 'erase-calendar-b1', 'cancel-session-b0', 'erase-calendar-b0']));
    expect(names.filter((n) => n === 'cancel-session-b1')).toHaveLength(1);
    expect(names.indexOf('erase-calendar-b0')).toBeLessThan(names.indexOf('shred-account'));
    expect(steps.find((s) => s.step === 'cancel-session-b0')).toMatchObject({
      target: 'sessions',
      id: 'b0',
      command: { type: 'CancelSessionForErasure', data: { sessionId: 'b0' } },
    });
  });

  it('a state saved before bookings were followed (no sessions) still erases what the deletion names', () => {
    const old = { usernameReservation: null, emailReservation: null, students: {}, contactIds: [], deleted: false };
    const steps = workflow.react(workflow.evolve(old, { type: 'AccountDeleted', data: { userId: 'u', sessionIds: ['b2'], at } }), {
      type: 'AccountDeleted',
      data: { userId: 'u', sessionIds: ['b2'], at },
    });
    expect(steps.map((s) => s.step)).toContain('erase-calendar-b2');
  });
});
