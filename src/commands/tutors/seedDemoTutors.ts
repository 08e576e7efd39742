import type { Clock } from '../../adapters/clock/clock.ts';
import type { EventStore } from '../../adapters/eventstore/eventStore.ts';
import type { WeeklyHours } from '../../domain/calendar/availability.ts';
import { normalizeSubjectName } from '../../domain/subjects/gradeLevels.ts';
import { qualificationPolicy, type SubjectRef } from '../../domain/subjects/qualifications.ts';
import { type CommandContext, commandContext, deterministicUuid } from '../kit/commandContext.ts';
import { tutorHandlers } from './tutorHandlers.ts';

interface DemoTutor {
  key: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  bio: string;
  experience: number;
  /** Catalogue names; the qualification policy adds the lower levels they imply. */
  subjects: string[];
  timeZone: string;
  hours: WeeklyHours[];
}

const weekdays = [1, 2, 3, 4, 5];

/** Two tutors who teach different areas in different zones, so a newcomer can browse and (later) book at once. */
export const demoTutors: readonly DemoTutor[] = [
  {
    key: 'maya',
    username: 'demo.tutor.maya',
    email: 'maya.tutor@demo.topmark.example',
    firstName: 'Maya',
    lastName: 'Okafor',
    bio: 'Mathematics graduate who has tutored calculus and functions for six years. I break hard problems into steps students can reuse on their own.',
    experience: 6,
    subjects: ['Calculus (University/College)', 'Statistics (University/College)'],
    timeZone: 'America/Toronto',
    hours: [
      ...weekdays.map((dayOfWeek) => ({ dayOfWeek, startTime: '16:00', endTime: '20:00' })),
      { dayOfWeek: 6, startTime: '10:00', endTime: '14:00' },
    ],
  },
  {
    key: 'daniel',
    username: 'demo.tutor.daniel',
    email: 'daniel.tutor@demo.topmark.example',
    firstName: 'Daniel',
    lastName: 'Reyes',
    bio: 'Chemistry and physics tutor with a teaching degree. Patient, exam-focused, and big on practice questions with worked solutions.',
    experience: 4,
    subjects: ['Chemistry (University/College)', 'Physics (Grade 11-12)', 'English (Grade 11-12)'],
    timeZone: 'America/Vancouver',
    hours: [
      { dayOfWeek: 0, startTime: '09:00', endTime: '13:00' },
      ...[2, 4].map((dayOfWeek) => ({ dayOfWeek, startTime: '15:00', endTime: '19:00' })),
    ],
  },
];

/** A tutor's Google account as approval registers it. */
export interface TutorAccount {
  username: string;
  email: string;
  password: null;
  role: 'tutor';
  firstName: string;
  lastName: string;
  phone: null;
  authProvider: 'google';
  googleId: string;
  emailVerified: true;
  termsAccepted: null;
}

/** What the tutors feature needs of accounts, handed in (accounts' `demoTutorAccounts`): it does not own them. */
export interface TutorAccountsPort {
  register(account: TutorAccount, ctx: CommandContext): Promise<{ userId: string }>;
  setTimezone(userId: string, timezone: string, ctx: CommandContext): Promise<unknown>;
}

export interface DemoTutorCredential {
  role: 'tutor';
  username: string;
  /** Demo tutors sign in with Google (the dev identity provider): this address, no password. */
  email: string;
}

/**
 * Demo tutors as approval and onboarding leave them: a Google account with the tutor role, a
 * profile with bio, subjects (through the qualification policy) and weekly hours (the calendar saga
 * writes them as "Topmark Hours"), onboarding completed when the calendar is the built-in one.
 * Command ids are fixed, so seeding twice appends nothing twice.
 */
export async function seedDemoTutors(
  deps: { accounts: TutorAccountsPort; store: EventStore; clock: Clock },
  catalog: readonly SubjectRef[],
  /** `googleIdOf`: the Google subject the configured identity provider gives an address (the dev provider's, by default). */
  options: { calendarConnected: boolean; googleIdOf: (email: string) => string },
): Promise<DemoTutorCredential[]> {
  const handlers = tutorHandlers(deps.store).tutors;
  const policy = qualificationPolicy(catalog);
  const idOf = new Map(catalog.map((s) => [normalizeSubjectName(s.name), s.id]));
  const credentials: DemoTutorCredential[] = [];
  for (const tutor of demoTutors) {
    const ctx = (step: string, actorId: string | null = null) =>
      commandContext({
        commandId: deterministicUuid(`demo-seed/tutor/${tutor.key}/${step}`),
        actorId,
        actorRole: actorId ? 'tutor' : 'system',
        now: deps.clock.now(),
      });
    const { userId } = await deps.accounts.register(
      {
        username: tutor.username,
        email: tutor.email,
        password: null,
        role: 'tutor',
        firstName: tutor.firstName,
        lastName: tutor.lastName,
        phone: null,
        authProvider: 'google',
        googleId: options.googleIdOf(tutor.email),
        emailVerified: true,
        termsAccepted: null,
      },
      ctx('register'),
    );
    const tutorId = userId;
    await deps.accounts.setTimezone(userId, tutor.timeZone, ctx('timezone', userId));
    await handlers.handle(
      tutorId,
      { type: 'CreateTutorProfile', data: { tutorId, userId, applicationId: `demo-${tutor.key}` } },
      ctx('profile'),
    );
    await handlers.handle(
      tutorId,
      { type: 'EditTutorProfile', data: { tutorId, bio: tutor.bio, experience: tutor.experience } },
      ctx('bio', userId),
    );
    const chosen = tutor.subjects.flatMap((name) => idOf.get(normalizeSubjectName(name)) ?? []);
    if (chosen.length > 0) {
      const qualifications = chosen.map((subjectId) => ({ subjectId, maxGradeLevel: policy.levelOf(subjectId) }));
      await handlers.handle(
        tutorId,
        { type: 'SetQualifications', data: { tutorId, qualifications, catalog: [...catalog] } },
        ctx('subjects', userId),
      );
    }
    await handlers.handle(
      tutorId,
      { type: 'SetWeeklyHours', data: { tutorId, availability: tutor.hours, timeZone: tutor.timeZone } },
      ctx('hours', userId),
    );
    if (options.calendarConnected && chosen.length > 0)
      await handlers.handle(tutorId, { type: 'CompleteOnboarding', data: { tutorId, calendarConnected: true } }, ctx('onboarding', userId));
    credentials.push({ role: 'tutor', username: tutor.username, email: tutor.email });
  }
  return credentials;
}
