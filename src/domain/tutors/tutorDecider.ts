import { validateWeeklyHours, type WeeklyHours } from '../calendar/availability.ts';
import { type Command, type CommandMetadata, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import { knownTimeZoneOf } from '../kit/timeZones.ts';
import { MAX_HOURLY_RATE_CENTS } from '../payouts/hourlyRate.ts';
import { type Qualification, qualificationPolicy, type SubjectRef } from '../subjects/qualifications.ts';
import { evolveTutor, initialTutorState, type TutorEvent, type TutorState } from './tutor.ts';

export const TUTOR_NOT_FOUND = 'Tutor not found';
export const NOT_YOUR_PROFILE = 'You can only change your own tutor profile';
export const BIO_MAX_LENGTH = 2000;
export const BIO_TOO_LONG = `Bio must be at most ${BIO_MAX_LENGTH} characters`;
export const EXPERIENCE_INVALID = 'Experience must be a whole number of years between 0 and 80';
/** Spec part 2 §5: saving subjects requires at least one subject. */
export const AT_LEAST_ONE_SUBJECT = 'Please select at least one subject';
export const UNKNOWN_SUBJECT = 'One of the subjects is unknown or no longer offered';
export const ONBOARDING_INCOMPLETE = 'Onboarding is not complete';
export const RATE_ADMIN_ONLY = "Only an admin can change a tutor's hourly rate";
export const RATE_INVALID = `Hourly rate must be a positive amount in dollars with at most 2 decimals, at most ${MAX_HOURLY_RATE_CENTS / 100}`;
export const RATE_REASON_MAX_LENGTH = 500;
export const RATE_REASON_REQUIRED = 'A reason is required';
export const RATE_REASON_TOO_LONG = `Reason must be at most ${RATE_REASON_MAX_LENGTH} characters`;

type Profile = { tutorId: string };
export type TutorCommand =
  | Command<'CreateTutorProfile', { tutorId: string; userId: string; applicationId: string }>
  | Command<'EditTutorProfile', Profile & { bio?: string; experience?: number | null }>
  | Command<'ChangeTutorPicture', Profile & { imagePath: string; contentType: string }>
  /** `catalog`: the subjects on offer now (a fact the command layer reads); the policy adds implied subjects. */
  | Command<'SetQualifications', Profile & { qualifications: Qualification[]; catalog: SubjectRef[] }>
  | Command<'SetWeeklyHours', Profile & { availability: WeeklyHours[]; timeZone: string }>
  /** `calendarConnected`: whether Topmark can reach the tutor's calendar now (a fact). */
  | Command<'CompleteOnboarding', Profile & { calendarConnected: boolean }>
  | Command<'RecordCalendarAccessLost', Profile & { reason: string }>
  | Command<'RecordCalendarAccessRestored', Profile>
  /** Admins only; `effectiveFrom` an instant (the route defaults it to now). */
  | Command<'ChangeTutorRate', Profile & { hourlyRateCents: number; effectiveFrom: Date; reason: string }>;

/** The tutor edits their own profile; an admin may act on anyone's. Returns the profile's user id. */
function ownProfile(state: TutorState, metadata: CommandMetadata): string {
  if (!state.exists || !state.userId) throw new DomainError(TUTOR_NOT_FOUND, 'not_found');
  if (metadata.actorRole !== 'admin' && metadata.actorId !== state.userId) throw new DomainError(NOT_YOUR_PROFILE, 'forbidden');
  return state.userId;
}

const sameQualifications = (a: readonly Qualification[], b: readonly Qualification[]) =>
  a.length === b.length && a.every((q, i) => q.subjectId === b[i]?.subjectId && q.maxGradeLevel === b[i]?.maxGradeLevel);

const sameHours = (a: readonly WeeklyHours[], b: readonly WeeklyHours[]) =>
  a.length === b.length &&
  a.every((h, i) => h.dayOfWeek === b[i]?.dayOfWeek && h.startTime === b[i]?.startTime && h.endTime === b[i]?.endTime);

/** What onboarding still lacks, in the checklist's words. */
export function missingForOnboarding(state: TutorState, calendarConnected: boolean): string[] {
  const missing: string[] = [];
  if (!state.bio?.trim()) missing.push('a bio');
  if (state.qualifications.length === 0) missing.push('at least one teaching subject');
  if (state.weeklyHours.length === 0) missing.push('weekly hours');
  if (!calendarConnected) missing.push('a connected calendar');
  return missing;
}

/** The tutor's profile: created on approval, filled in during onboarding, edited from the dashboard. */
export const decideTutor = decideWith<TutorCommand, TutorEvent, TutorState>({
  CreateTutorProfile: ({ data, metadata: { now } }, state) =>
    state.exists
      ? []
      : [{ type: 'TutorProfileCreated', data: { ...data, hourlyRate: null, onboardingCompleted: false, at: now.toISOString() } }],

  EditTutorProfile: ({ data, metadata }, state) => {
    const userId = ownProfile(state, metadata);
    const changes: { bio?: string; experience?: number | null } = {};
    if (data.bio !== undefined) {
      const bio = data.bio.trim();
      if (bio.length > BIO_MAX_LENGTH) throw new DomainError(BIO_TOO_LONG, 'invalid');
      if (bio !== (state.bio ?? '')) changes.bio = bio;
    }
    if (data.experience !== undefined) {
      const years = data.experience;
      if (years !== null && (!Number.isInteger(years) || years < 0 || years > 80)) throw new DomainError(EXPERIENCE_INVALID, 'invalid');
      if (years !== state.experience) changes.experience = years;
    }
    if (Object.keys(changes).length === 0) return [];
    return [{ type: 'TutorProfileEdited', data: { tutorId: data.tutorId, userId, ...changes, at: metadata.now.toISOString() } }];
  },

  ChangeTutorPicture: ({ data, metadata }, state) => {
    const userId = ownProfile(state, metadata);
    if (data.imagePath === state.imagePath) return [];
    return [{ type: 'TutorPictureChanged', data: { ...data, userId, at: metadata.now.toISOString() } }];
  },

  SetQualifications: ({ data, metadata }, state) => {
    const userId = ownProfile(state, metadata);
    if (data.qualifications.length === 0) throw new DomainError(AT_LEAST_ONE_SUBJECT, 'invalid');
    const offered = new Set(data.catalog.map((s) => s.id));
    if (data.qualifications.some((q) => !offered.has(q.subjectId))) throw new DomainError(UNKNOWN_SUBJECT, 'invalid');
    // The server enforces the auto-selection the editor shows: implied subjects are saved too.
    const qualifications = qualificationPolicy(data.catalog).expand(data.qualifications);
    if (sameQualifications(qualifications, state.qualifications)) return [];
    return [{ type: 'TutorQualificationsSet', data: { tutorId: data.tutorId, userId, qualifications, at: metadata.now.toISOString() } }];
  },

  SetWeeklyHours: ({ data, metadata }, state) => {
    const userId = ownProfile(state, metadata);
    const timeZone = knownTimeZoneOf(data.timeZone, 'timezone');
    const availability = validateWeeklyHours(data.availability);
    if (timeZone === state.timeZone && sameHours(availability, state.weeklyHours)) return [];
    return [
      { type: 'TutorWeeklyHoursSet', data: { tutorId: data.tutorId, userId, timeZone, availability, at: metadata.now.toISOString() } },
    ];
  },

  CompleteOnboarding: ({ data, metadata }, state) => {
    const userId = ownProfile(state, metadata);
    if (state.onboardingCompleted) return [];
    const missing = missingForOnboarding(state, data.calendarConnected);
    if (missing.length > 0) throw new DomainError(`${ONBOARDING_INCOMPLETE}: add ${missing.join(', ')}`, 'unprocessable');
    return [{ type: 'TutorOnboardingCompleted', data: { tutorId: data.tutorId, userId, at: metadata.now.toISOString() } }];
  },

  RecordCalendarAccessLost: ({ data, metadata }, state) => {
    if (!state.exists || !state.userId) throw new DomainError(TUTOR_NOT_FOUND, 'not_found');
    if (state.calendarAccessLost) return [];
    return [{ type: 'TutorCalendarAccessLost', data: { ...data, userId: state.userId, at: metadata.now.toISOString() } }];
  },

  RecordCalendarAccessRestored: ({ data, metadata }, state) => {
    if (!state.exists || !state.userId || !state.calendarAccessLost) return [];
    return [{ type: 'TutorCalendarAccessRestored', data: { ...data, userId: state.userId, at: metadata.now.toISOString() } }];
  },

  ChangeTutorRate: ({ data, metadata }, state) => {
    if (metadata.actorRole !== 'admin') throw new DomainError(RATE_ADMIN_ONLY, 'forbidden');
    if (!state.exists || !state.userId) throw new DomainError(TUTOR_NOT_FOUND, 'not_found');
    const cents = data.hourlyRateCents;
    if (!Number.isInteger(cents) || cents <= 0 || cents > MAX_HOURLY_RATE_CENTS) throw new DomainError(RATE_INVALID, 'invalid');
    const reason = data.reason.trim();
    if (!reason) throw new DomainError(RATE_REASON_REQUIRED, 'invalid');
    if (reason.length > RATE_REASON_MAX_LENGTH) throw new DomainError(RATE_REASON_TOO_LONG, 'invalid');
    if (Number.isNaN(data.effectiveFrom.getTime())) throw new DomainError('effectiveFrom must be an ISO date-time', 'invalid');
    return [
      {
        type: 'TutorRateChanged',
        data: {
          tutorId: data.tutorId,
          userId: state.userId,
          hourlyRateCents: cents,
          effectiveFrom: data.effectiveFrom.toISOString(),
          reason,
          changedBy: metadata.actorId ?? null,
          at: metadata.now.toISOString(),
        },
      },
    ];
  },
});

export const tutorDecider: Decider<TutorCommand, TutorEvent, TutorState> = {
  initialState: initialTutorState,
  evolve: evolveTutor,
  decide: decideTutor,
};
