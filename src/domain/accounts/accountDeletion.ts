import type { ContactEvent } from '../contact/contact.ts';
import type { Workflow } from '../kit/workflow.ts';
import type { SessionEvent } from '../sessions/session.ts';
import { accountHolder, secondaryLoginHolder } from './reservation.ts';
import type { StudentEvent } from './student.ts';
import type { UserEvent } from './user.ts';

/**
 * What an account deletion must erase and give back, known from the log: the account's
 * username and e-mail claims, its students' profiles and view-only login claims, the contact
 * messages it sent, the sessions booked for its students. Reservation streams are named by hashes
 * (`reservationOf`), so the state holds no personal data. The runner that executes the steps
 * shreds the person's key last.
 */
export interface AccountDeletionState {
  usernameReservation: string | null;
  emailReservation: string | null;
  students: Record<string, { secondaryReservation: string | null }>;
  contactIds: string[];
  /** Sessions booked for the account's students (absent in states saved before bookings were followed). */
  sessions?: string[];
  deleted: boolean;
}

export type AccountDeletionStep =
  | { step: string; target: 'students'; id: string; command: { type: 'EraseStudentProfile'; data: { studentId: string } } }
  | { step: string; target: 'reservations'; id: string; command: { type: 'Release'; data: { holderId: string } } }
  | { step: string; target: 'contacts'; id: string; command: { type: 'EraseContactMessage'; data: { contactId: string } } }
  /** A session still ahead is cancelled (the hour freed, the tutor told); one started, over or closed is left. */
  | { step: string; target: 'sessions'; id: string; command: { type: 'CancelSessionForErasure'; data: { sessionId: string } } }
  /** The person leaves the session's calendar events (a job: the calendar is a network call, retried). */
  | { step: string; target: 'calendar'; sessionId: string }
  | { step: string; target: 'personalData'; subject: string }
  /** The files the account owns (a tutor's profile pictures and pending uploads), deleted from the file storage. */
  | { step: string; target: 'files'; ownerId: string };

type Input = UserEvent | StudentEvent | ContactEvent | SessionEvent;

/** `reservationOf(kind, value)` names the reservation stream of a value (a hash: the caller's). */
export function accountDeletionWorkflow(
  reservationOf: (kind: 'username' | 'email', value: string) => string,
): Workflow<Input, AccountDeletionState, AccountDeletionStep> {
  return {
    name: 'account_deletion',
    handles: ['UserRegistered', 'StudentProfileCreated', 'SecondaryLoginSet', 'ContactMessageReceived', 'SessionBooked', 'AccountDeleted'],
    instanceOf(event) {
      if (event.type === 'ContactMessageReceived') return event.data.senderUserId;
      if (event.type === 'UserRegistered' || event.type === 'StudentProfileCreated' || event.type === 'SecondaryLoginSet')
        return event.data.userId;
      if (event.type === 'AccountDeleted') return event.data.userId;
      // The account holding the student: a parent's for a child's session.
      if (event.type === 'SessionBooked') return event.data.studentUserId;
      return null;
    },
    initialState: { usernameReservation: null, emailReservation: null, students: {}, contactIds: [], sessions: [], deleted: false },
    evolve(state, event) {
      switch (event.type) {
        case 'UserRegistered':
          return {
            ...state,
            usernameReservation: reservationOf('username', event.data.username),
            emailReservation: reservationOf('email', event.data.email),
          };
        case 'StudentProfileCreated':
          return { ...state, students: { ...state.students, [event.data.studentId]: { secondaryReservation: null } } };
        case 'SecondaryLoginSet':
          return {
            ...state,
            students: {
              ...state.students,
              [event.data.studentId]: { secondaryReservation: reservationOf('username', event.data.secondaryUsername) },
            },
          };
        case 'ContactMessageReceived':
          return { ...state, contactIds: [...state.contactIds, event.data.contactId] };
        case 'SessionBooked':
          return { ...state, sessions: [...new Set([...(state.sessions ?? []), event.data.sessionId])] };
        case 'AccountDeleted':
          return {
            ...state,
            contactIds: [...new Set([...state.contactIds, ...(event.data.contactIds ?? [])])],
            sessions: [...new Set([...(state.sessions ?? []), ...(event.data.sessionIds ?? [])])],
            deleted: true,
          };
        default:
          return state;
      }
    },
    isFinished: (state) => state.deleted,
    react(state, event) {
      if (event.type !== 'AccountDeleted') return [];
      const userId = event.data.userId;
      const steps: AccountDeletionStep[] = [];
      for (const [studentId, student] of Object.entries(state.students)) {
        steps.push({
          step: `erase-student-${studentId}`,
          target: 'students',
          id: studentId,
          command: { type: 'EraseStudentProfile', data: { studentId } },
        });
        if (student.secondaryReservation) {
          steps.push({
            step: `release-secondary-${studentId}`,
            target: 'reservations',
            id: student.secondaryReservation,
            command: { type: 'Release', data: { holderId: secondaryLoginHolder(studentId) } },
          });
        }
      }
      // Before the key goes: the cancellations are sealed with it like any other (an erased key is never made again).
      for (const sessionId of state.sessions ?? []) {
        steps.push({
          step: `cancel-session-${sessionId}`,
          target: 'sessions',
          id: sessionId,
          command: { type: 'CancelSessionForErasure', data: { sessionId } },
        });
        steps.push({ step: `erase-calendar-${sessionId}`, target: 'calendar', sessionId });
      }
      for (const contactId of state.contactIds) {
        steps.push({
          step: `erase-contact-${contactId}`,
          target: 'contacts',
          id: contactId,
          command: { type: 'EraseContactMessage', data: { contactId } },
        });
        steps.push({ step: `shred-contact-${contactId}`, target: 'personalData', subject: `contact-${contactId}` });
      }
      for (const [kind, stream] of [
        ['username', state.usernameReservation],
        ['email', state.emailReservation],
      ] as const) {
        if (stream)
          steps.push({
            step: `release-${kind}`,
            target: 'reservations',
            id: stream,
            command: { type: 'Release', data: { holderId: accountHolder(userId) } },
          });
      }
      steps.push({ step: 'delete-files', target: 'files', ownerId: userId });
      // Last: until now the steps above could still read what they needed.
      steps.push({ step: 'shred-account', target: 'personalData', subject: `user-${userId}` });
      return steps;
    },
  };
}
