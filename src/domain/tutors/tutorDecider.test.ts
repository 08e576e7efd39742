import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../../tests/support/givenWhenThen.ts';
import { rateInForce } from '../payouts/hourlyRate.ts';
import type { SubjectRef } from '../subjects/qualifications.ts';
import type { TutorEvent } from './tutor.ts';
import {
  AT_LEAST_ONE_SUBJECT,
  BIO_MAX_LENGTH,
  BIO_TOO_LONG,
  EXPERIENCE_INVALID,
  missingForOnboarding,
  NOT_YOUR_PROFILE,
  ONBOARDING_INCOMPLETE,
  RATE_ADMIN_ONLY,
  RATE_INVALID,
  RATE_REASON_REQUIRED,
  RATE_REASON_TOO_LONG,
  TUTOR_NOT_FOUND,
  type TutorCommand,
  tutorDecider,
  UNKNOWN_SUBJECT,
} from './tutorDecider.ts';

const now = new Date('2026-11-23T12:00:00.000Z');
const at = now.toISOString();
const tutorId = 't1';
const own = { now, actorId: tutorId, actorRole: 'tutor' };
const stranger = { now, actorId: 't2', actorRole: 'tutor' };
const admin = { now, actorId: 'admin-1', actorRole: 'admin' };
const spec = deciderSpec(tutorDecider);

const created: TutorEvent = {
  type: 'TutorProfileCreated',
  data: { tutorId, userId: tutorId, applicationId: 'a1', hourlyRate: null, onboardingCompleted: false, at },
};
const edited = (changes: { bio?: string; experience?: number | null }): TutorEvent => ({
  type: 'TutorProfileEdited',
  data: { tutorId, userId: tutorId, ...changes, at },
});
type Meta = TutorCommand['metadata'];
const edit = (data: { bio?: string; experience?: number | null }, metadata: Meta = own): TutorCommand => ({
  type: 'EditTutorProfile',
  data: { tutorId, ...data },
  metadata,
});

const catalog: SubjectRef[] = [
  'Calculus (University/College)',
  'Calculus (Grade 11-12)',
  'Advanced Functions',
  'Functions',
  'Math (Grade 10 & Under)',
  'Piano',
].map((name, i) => ({ id: `s${i}`, name }));
const idOf = (name: string) => catalog.find((s) => s.name === name)?.id as string;
const setQualifications = (qualifications: { subjectId: string; maxGradeLevel: 'grade_10_under' | 'grade_11_12' | 'university' }[]) =>
  ({ type: 'SetQualifications', data: { tutorId, qualifications, catalog }, metadata: own }) as const;
const qualificationsSet = (qualifications: { subjectId: string; maxGradeLevel: 'grade_10_under' | 'grade_11_12' | 'university' }[]) =>
  ({ type: 'TutorQualificationsSet', data: { tutorId, userId: tutorId, qualifications, at } }) as const;

describe('tutor decider: whose profile', () => {
  it("refuses a tutor's edit of someone else's profile, lets the owner and an admin edit", () => {
    spec
      .given([created])
      .when(edit({ bio: 'Hi' }, stranger))
      .thenThrows(NOT_YOUR_PROFILE, 'forbidden');
    spec
      .given([created])
      .when(edit({ bio: 'Hi' }))
      .thenEvents([edited({ bio: 'Hi' })]);
    spec
      .given([created])
      .when(edit({ bio: 'Hi' }, admin))
      .thenEvents([edited({ bio: 'Hi' })]);
  });

  it('answers every profile command on an unknown tutor with not found', () => {
    const commands: TutorCommand[] = [
      edit({ bio: 'x' }),
      { type: 'ChangeTutorPicture', data: { tutorId, imagePath: 'p', contentType: 'image/png' }, metadata: own },
      setQualifications([{ subjectId: 's5', maxGradeLevel: 'grade_10_under' }]),
      { type: 'SetWeeklyHours', data: { tutorId, availability: [], timeZone: 'UTC' }, metadata: own },
      { type: 'CompleteOnboarding', data: { tutorId, calendarConnected: true }, metadata: own },
      { type: 'RecordCalendarAccessLost', data: { tutorId, reason: 'invalid_grant' }, metadata: admin },
    ];
    for (const command of commands) spec.given([]).when(command).thenThrows(TUTOR_NOT_FOUND, 'not_found');
  });

  it("refuses someone else's picture, qualifications, hours and onboarding", () => {
    const commands: TutorCommand[] = [
      { type: 'ChangeTutorPicture', data: { tutorId, imagePath: 'p', contentType: 'image/png' }, metadata: stranger },
      { ...setQualifications([{ subjectId: 's5', maxGradeLevel: 'grade_10_under' }]), metadata: stranger },
      { type: 'SetWeeklyHours', data: { tutorId, availability: [], timeZone: 'UTC' }, metadata: stranger },
      { type: 'CompleteOnboarding', data: { tutorId, calendarConnected: true }, metadata: stranger },
    ];
    for (const command of commands) spec.given([created]).when(command).thenThrows(NOT_YOUR_PROFILE, 'forbidden');
  });
});

describe('tutor decider: bio and experience', () => {
  it('trims the bio and records only what changed', () => {
    spec
      .given([created])
      .when(edit({ bio: '  I teach calculus.\n', experience: 3 }))
      .thenEvents([edited({ bio: 'I teach calculus.', experience: 3 })]);
    spec
      .given([created, edited({ bio: 'I teach calculus.', experience: 3 })])
      .when(edit({ bio: 'I teach calculus. ', experience: 4 }))
      .thenEvents([edited({ experience: 4 })]);
  });

  it('gives no events for a no-op edit', () => {
    const history = [created, edited({ bio: 'Same', experience: 2 })];
    spec
      .given(history)
      .when(edit({ bio: ' Same ', experience: 2 }))
      .thenNothing();
    spec.given(history).when(edit({})).thenNothing();
    spec
      .given([created])
      .when(edit({ bio: '   ' }))
      .thenNothing();
    spec
      .given([created])
      .when(edit({ experience: null }))
      .thenNothing();
  });

  it(`refuses a bio longer than ${BIO_MAX_LENGTH} characters once trimmed`, () => {
    spec
      .given([created])
      .when(edit({ bio: 'x'.repeat(BIO_MAX_LENGTH + 1) }))
      .thenThrows(BIO_TOO_LONG, 'invalid');
    spec
      .given([created])
      .when(edit({ bio: ` ${'x'.repeat(BIO_MAX_LENGTH)} ` }))
      .thenEvents([edited({ bio: 'x'.repeat(BIO_MAX_LENGTH) })]);
  });

  it('takes whole years from 0 to 80, or null to clear', () => {
    for (const experience of [-1, 81, 2.5, Number.NaN])
      spec.given([created]).when(edit({ experience })).thenThrows(EXPERIENCE_INVALID, 'invalid');
    spec
      .given([created])
      .when(edit({ experience: 0 }))
      .thenEvents([edited({ experience: 0 })]);
    spec
      .given([created])
      .when(edit({ experience: 80 }))
      .thenEvents([edited({ experience: 80 })]);
    spec
      .given([created, edited({ experience: 5 })])
      .when(edit({ experience: null }))
      .thenEvents([edited({ experience: null })]);
  });
});

describe('tutor decider: picture', () => {
  const picture = { tutorId, imagePath: 'profile-pictures/t1/abc.png', contentType: 'image/png' };
  it('records a new picture once', () => {
    const changed: TutorEvent = { type: 'TutorPictureChanged', data: { ...picture, userId: tutorId, at } };
    spec.given([created]).when({ type: 'ChangeTutorPicture', data: picture, metadata: own }).thenEvents([changed]);
    spec.given([created, changed]).when({ type: 'ChangeTutorPicture', data: picture, metadata: own }).thenNothing();
  });
});

describe('tutor decider: qualifications', () => {
  it(`refuses an empty set: ${AT_LEAST_ONE_SUBJECT}`, () => {
    spec.given([created]).when(setQualifications([])).thenThrows(AT_LEAST_ONE_SUBJECT, 'invalid');
  });

  it('refuses a subject the catalogue does not offer', () => {
    spec
      .given([created])
      .when(setQualifications([{ subjectId: 'nope', maxGradeLevel: 'grade_10_under' }]))
      .thenThrows(UNKNOWN_SUBJECT, 'invalid');
  });

  it('adds the subjects a university subject implies, with the levels their names imply', () => {
    spec
      .given([created])
      .when(setQualifications([{ subjectId: idOf('Calculus (University/College)'), maxGradeLevel: 'university' }]))
      .thenEvents([
        qualificationsSet([
          { subjectId: idOf('Calculus (University/College)'), maxGradeLevel: 'university' },
          { subjectId: idOf('Calculus (Grade 11-12)'), maxGradeLevel: 'grade_11_12' },
          { subjectId: idOf('Advanced Functions'), maxGradeLevel: 'grade_11_12' },
          { subjectId: idOf('Functions'), maxGradeLevel: 'grade_10_under' },
          { subjectId: idOf('Math (Grade 10 & Under)'), maxGradeLevel: 'grade_10_under' },
        ]),
      ]);
  });

  it('keeps the level of an implied subject the tutor already set, and counts a duplicate once', () => {
    spec
      .given([created])
      .when(
        setQualifications([
          { subjectId: idOf('Functions'), maxGradeLevel: 'university' },
          { subjectId: idOf('Calculus (University/College)'), maxGradeLevel: 'university' },
          { subjectId: idOf('Functions'), maxGradeLevel: 'grade_10_under' },
        ]),
      )
      .thenEvents([
        qualificationsSet([
          { subjectId: idOf('Functions'), maxGradeLevel: 'university' },
          { subjectId: idOf('Calculus (University/College)'), maxGradeLevel: 'university' },
          { subjectId: idOf('Calculus (Grade 11-12)'), maxGradeLevel: 'grade_11_12' },
          { subjectId: idOf('Advanced Functions'), maxGradeLevel: 'grade_11_12' },
          { subjectId: idOf('Math (Grade 10 & Under)'), maxGradeLevel: 'grade_10_under' },
        ]),
      ]);
  });

  it('gives no events when the expanded set is the saved one', () => {
    const piano = [{ subjectId: idOf('Piano'), maxGradeLevel: 'grade_10_under' as const }];
    spec
      .given([created, qualificationsSet(piano)])
      .when(setQualifications(piano))
      .thenNothing();
  });
});

describe('tutor decider: weekly hours', () => {
  const hours = (availability: { dayOfWeek: number; startTime: string; endTime: string }[], timeZone = 'America/Toronto') =>
    ({ type: 'SetWeeklyHours', data: { tutorId, availability, timeZone }, metadata: own }) as const;

  it('records valid hours, once', () => {
    const availability = [{ dayOfWeek: 1, startTime: '09:00', endTime: '12:00' }];
    const set: TutorEvent = {
      type: 'TutorWeeklyHoursSet',
      data: { tutorId, userId: tutorId, timeZone: 'America/Toronto', availability, at },
    };
    spec.given([created]).when(hours(availability)).thenEvents([set]);
    spec.given([created, set]).when(hours(availability)).thenNothing();
  });

  it('refuses an unknown zone, a day out of range, a malformed time and an empty window', () => {
    spec.given([created]).when(hours([], 'Mars/Olympus')).thenThrows(/./, 'invalid');
    spec
      .given([created])
      .when(hours([{ dayOfWeek: 7, startTime: '09:00', endTime: '10:00' }]))
      .thenThrows(/dayOfWeek/, 'invalid');
    spec
      .given([created])
      .when(hours([{ dayOfWeek: 1, startTime: '9am', endTime: '10:00' }]))
      .thenThrows(/HH:mm/, 'invalid');
    spec
      .given([created])
      .when(hours([{ dayOfWeek: 1, startTime: '10:00', endTime: '09:00' }]))
      .thenThrows(/./, 'invalid');
  });
});

describe('tutor decider: onboarding', () => {
  const complete = (calendarConnected: boolean) =>
    ({ type: 'CompleteOnboarding', data: { tutorId, calendarConnected }, metadata: own }) as const;
  const ready: TutorEvent[] = [
    created,
    edited({ bio: 'Bio' }),
    qualificationsSet([{ subjectId: 's5', maxGradeLevel: 'grade_10_under' }]),
    {
      type: 'TutorWeeklyHoursSet',
      data: { tutorId, userId: tutorId, timeZone: 'UTC', availability: [{ dayOfWeek: 1, startTime: '09:00', endTime: '10:00' }], at },
    },
  ];
  const completed: TutorEvent = { type: 'TutorOnboardingCompleted', data: { tutorId, userId: tutorId, at } };

  it('lists everything that is missing', () => {
    spec
      .given([created])
      .when(complete(false))
      .thenThrows(
        `${ONBOARDING_INCOMPLETE}: add a bio, at least one teaching subject, weekly hours, a connected calendar`,
        'unprocessable',
      );
    spec.given(ready).when(complete(false)).thenThrows(`${ONBOARDING_INCOMPLETE}: add a connected calendar`, 'unprocessable');
  });

  it('completes once everything is there, and only once', () => {
    spec.given(ready).when(complete(true)).thenEvents([completed]);
    spec
      .given([...ready, completed])
      .when(complete(true))
      .thenNothing();
    expect(missingForOnboarding(tutorDecider.initialState, true)).toEqual(['a bio', 'at least one teaching subject', 'weekly hours']);
  });
});

describe('tutor decider: calendar access', () => {
  const lost: TutorEvent = { type: 'TutorCalendarAccessLost', data: { tutorId, userId: tutorId, reason: 'invalid_grant', at } };
  const restored: TutorEvent = { type: 'TutorCalendarAccessRestored', data: { tutorId, userId: tutorId, at } };
  const lose = { type: 'RecordCalendarAccessLost', data: { tutorId, reason: 'invalid_grant' }, metadata: admin } as const;
  const restore = { type: 'RecordCalendarAccessRestored', data: { tutorId }, metadata: admin } as const;

  it('records a loss once and a restoration only after a loss', () => {
    spec.given([created]).when(lose).thenEvents([lost]);
    spec.given([created, lost]).when(lose).thenNothing();
    spec.given([created]).when(restore).thenNothing();
    spec.given([created, lost]).when(restore).thenEvents([restored]);
    spec.given([created, lost, restored]).when(restore).thenNothing();
    spec.given([]).when(restore).thenNothing();
  });
});

describe('tutor hourly rate', () => {
  const change = (
    data: Partial<{ hourlyRateCents: number; reason: string; effectiveFrom: Date }> = {},
    metadata: Meta = admin,
  ): TutorCommand => ({
    type: 'ChangeTutorRate',
    data: { tutorId, hourlyRateCents: 4550, reason: '  Annual review  ', effectiveFrom: new Date('2026-11-10T00:00:00.000Z'), ...data },
    metadata,
  });

  it('an admin sets the rate from an instant, with the trimmed reason', () => {
    spec
      .given([created])
      .when(change())
      .thenEvents([
        {
          type: 'TutorRateChanged',
          data: {
            tutorId,
            userId: tutorId,
            hourlyRateCents: 4550,
            effectiveFrom: '2026-11-10T00:00:00.000Z',
            reason: 'Annual review',
            changedBy: 'admin-1',
            at,
          },
        },
      ]);
  });

  it('refuses the tutor, finance, an unknown tutor, a non-positive or absurd rate and a missing or overlong reason', () => {
    spec.given([created]).when(change({}, own)).thenThrows(RATE_ADMIN_ONLY, 'forbidden');
    spec
      .given([created])
      .when(change({}, { ...admin, actorRole: 'finance' }))
      .thenThrows(RATE_ADMIN_ONLY, 'forbidden');
    spec.given([]).when(change()).thenThrows(TUTOR_NOT_FOUND, 'not_found');
    spec
      .given([created])
      .when(change({ hourlyRateCents: 0 }))
      .thenThrows(RATE_INVALID, 'invalid');
    spec
      .given([created])
      .when(change({ hourlyRateCents: 45.5 }))
      .thenThrows(RATE_INVALID, 'invalid');
    spec
      .given([created])
      .when(change({ hourlyRateCents: 100_001 }))
      .thenThrows(RATE_INVALID, 'invalid');
    spec
      .given([created])
      .when(change({ reason: '   ' }))
      .thenThrows(RATE_REASON_REQUIRED, 'invalid');
    spec
      .given([created])
      .when(change({ reason: 'x'.repeat(501) }))
      .thenThrows(RATE_REASON_TOO_LONG, 'invalid');
  });

  it('the rate in force at an instant is the latest effective at or before it; a same-instant correction wins', () => {
    const rates = [
      { hourlyRateCents: 4000, effectiveFrom: '2026-11-01T05:00:00.000Z' },
      { hourlyRateCents: 5000, effectiveFrom: '2026-11-10T05:00:00.000Z' },
      { hourlyRateCents: 5500, effectiveFrom: '2026-11-10T05:00:00.000Z' },
      { hourlyRateCents: 3000, effectiveFrom: '2026-10-01T05:00:00.000Z' }, // recorded later, effective earlier
    ];
    expect(rateInForce(rates, new Date('2026-09-30T00:00:00.000Z'))).toBeNull();
    expect(rateInForce(rates, new Date('2026-10-15T00:00:00.000Z'))).toBe(3000);
    expect(rateInForce(rates, new Date('2026-11-10T04:59:59.999Z'))).toBe(4000);
    expect(rateInForce(rates, new Date('2026-11-10T05:00:00.000Z'))).toBe(5500);
  });
});
