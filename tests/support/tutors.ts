import { registerAccount } from '../../src/commands/accounts/registerUser.ts';
import { commandContext } from '../../src/commands/kit/commandContext.ts';
import { tutorHandlers } from '../../src/commands/tutors/tutorHandlers.ts';
import { waitForProjections } from '../../src/projections/runner/projectionRunner.ts';
import type { System } from '../../src/system.ts';

export interface ApprovedTutor {
  tutorId: string;
  userId: string;
  email: string;
  /** `tm_session=…` for the tutor's requests. */
  cookie: string;
}

/**
 * A tutor as approval leaves one (a Google account with the tutor role and a profile with
 * onboarding to do), signed in; without the application and review steps, which
 * `tutorRoutes.test.ts` covers. `n` keeps usernames and addresses apart within a database.
 */
export async function approvedTutor(
  system: Pick<System, 'accounts' | 'store' | 'sql' | 'sessions'>,
  n: string,
  name: { firstName: string; lastName: string } = { firstName: 'Tess', lastName: `Tutor${n}` },
): Promise<ApprovedTutor> {
  const email = `tutor-${n}@example.com`;
  const { userId } = await registerAccount(
    system.accounts,
    {
      username: `tutor-${n}`,
      email,
      password: null,
      role: 'tutor',
      ...name,
      phone: null,
      authProvider: 'google',
      googleId: `google-tutor-${n}`,
      emailVerified: true,
      termsAccepted: null,
    },
    commandContext(),
  );
  await tutorHandlers(system.store).tutors.handle(
    userId,
    { type: 'CreateTutorProfile', data: { tutorId: userId, userId, applicationId: `application-${n}` } },
    commandContext(),
  );
  if (!(await waitForProjections(system.sql, ['users', 'tutors'], await system.store.committedPosition(), 30_000)))
    throw new Error('the read models did not catch up with the tutor');
  const cookie = `tm_session=${(await system.sessions.create(userId, 'tutor')).token}`;
  return { tutorId: userId, userId, email, cookie };
}
