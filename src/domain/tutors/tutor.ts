import { z } from 'zod';
import type { WeeklyHours } from '../calendar/availability.ts';
import { type EventsOf, eventType } from '../kit/eventDefinition.ts';
import type { RateChange } from '../payouts/hourlyRate.ts';
import { type GradeLevel, gradeLevelSchema } from '../subjects/gradeLevels.ts';

/** The tutor's profile, created when an admin approves the application; onboarding fills it in later. */
export const tutorProfileCreated = z.object({
  tutorId: z.string(),
  userId: z.string(),
  applicationId: z.string(),
  hourlyRate: z.number().nullable(),
  onboardingCompleted: z.boolean(),
  at: z.string(),
});

/** Only the fields the tutor changed are present. */
export const tutorProfileEdited = z.object({
  tutorId: z.string(),
  userId: z.string(),
  bio: z.string().optional(),
  experience: z.number().int().nullable().optional(),
  at: z.string(),
});

/** The picture's storage path (`profile-pictures/<tutorId>/<sha256>.<ext>`), served at `/api/tutors/{id}/picture`. */
export const tutorPictureChanged = z.object({
  tutorId: z.string(),
  userId: z.string(),
  imagePath: z.string(),
  contentType: z.string(),
  at: z.string(),
});

export const qualificationSchema = z.object({ subjectId: z.string(), maxGradeLevel: gradeLevelSchema });

/** The whole set, as saved (the policy's implied subjects included). */
export const tutorQualificationsSet = z.object({
  tutorId: z.string(),
  userId: z.string(),
  qualifications: z.array(qualificationSchema),
  at: z.string(),
});

export const weeklyHoursEntry = z.object({ dayOfWeek: z.number().int(), startTime: z.string(), endTime: z.string() });

/** The tutor's weekly "Topmark Hours" in their zone; a saga writes them to the calendar as recurring events. */
export const tutorWeeklyHoursSet = z.object({
  tutorId: z.string(),
  userId: z.string(),
  timeZone: z.string(),
  availability: z.array(weeklyHoursEntry),
  at: z.string(),
});

export const tutorOnboardingCompleted = z.object({ tutorId: z.string(), userId: z.string(), at: z.string() });

/** Google refused the tutor's tokens (`invalid_grant`): the dashboard asks to authorise again and an alert is raised. */
export const tutorCalendarAccessLost = z.object({
  tutorId: z.string(),
  userId: z.string(),
  reason: z.string(),
  at: z.string(),
});
export const tutorCalendarAccessRestored = z.object({ tutorId: z.string(), userId: z.string(), at: z.string() });

/**
 * An admin set the tutor's hourly rate from `effectiveFrom` on (past, present or future): a session
 * is paid at the rate in force at its start (`rateInForce`), so a retroactive change reprices the
 * sessions after it and payouts show the difference as an adjustment.
 */
export const tutorRateChanged = z.object({
  tutorId: z.string(),
  userId: z.string(),
  hourlyRateCents: z.number().int().positive(),
  effectiveFrom: z.string(),
  reason: z.string(),
  changedBy: z.string().nullable(),
  at: z.string(),
});

export const tutorEvents = {
  TutorProfileCreated: eventType(tutorProfileCreated, { describe: () => 'Tutor profile created' }),
  TutorProfileEdited: eventType(tutorProfileEdited, {
    // The bio is the tutor's own words: sealed with their key, gone with their account.
    personal: { fields: ['bio'], subject: (d) => `user-${d.userId}` },
    describe: (d) => `Tutor profile edited (${['bio', 'experience'].filter((f) => f in d).join(', ')})`,
  }),
  TutorPictureChanged: eventType(tutorPictureChanged, {
    personal: { fields: ['imagePath'], subject: (d) => `user-${d.userId}` },
    describe: () => 'Tutor profile picture changed',
  }),
  TutorQualificationsSet: eventType(tutorQualificationsSet, {
    describe: (d) => `Tutor teaches ${d.qualifications.length} subject(s)`,
  }),
  TutorWeeklyHoursSet: eventType(tutorWeeklyHoursSet, {
    describe: (d) => `Tutor weekly hours set (${d.availability.length} window(s), ${d.timeZone})`,
  }),
  TutorOnboardingCompleted: eventType(tutorOnboardingCompleted, { describe: () => 'Tutor onboarding completed' }),
  TutorCalendarAccessLost: eventType(tutorCalendarAccessLost, { describe: (d) => `Tutor calendar access lost (${d.reason})` }),
  TutorCalendarAccessRestored: eventType(tutorCalendarAccessRestored, { describe: () => 'Tutor calendar access restored' }),
  TutorRateChanged: eventType(tutorRateChanged, {
    describe: (d) => `Tutor hourly rate set to ${(d.hourlyRateCents / 100).toFixed(2)} from ${d.effectiveFrom}`,
  }),
};

export type TutorEvent = EventsOf<typeof tutorEvents>;
export interface TutorState {
  exists: boolean;
  userId: string | null;
  hourlyRate: number | null;
  onboardingCompleted: boolean;
  bio: string | null;
  experience: number | null;
  imagePath: string | null;
  qualifications: { subjectId: string; maxGradeLevel: GradeLevel }[];
  weeklyHours: WeeklyHours[];
  timeZone: string | null;
  calendarAccessLost: boolean;
  /** Every rate set, in the order recorded (see `rateInForce`). */
  rates: RateChange[];
}
export const initialTutorState: TutorState = {
  exists: false,
  userId: null,
  hourlyRate: null,
  onboardingCompleted: false,
  bio: null,
  experience: null,
  imagePath: null,
  qualifications: [],
  weeklyHours: [],
  timeZone: null,
  calendarAccessLost: false,
  rates: [],
};
export const evolveTutor = (state: TutorState, event: TutorEvent): TutorState => {
  switch (event.type) {
    case 'TutorProfileCreated':
      return {
        ...state,
        exists: true,
        userId: event.data.userId,
        hourlyRate: event.data.hourlyRate,
        onboardingCompleted: event.data.onboardingCompleted,
      };
    case 'TutorProfileEdited':
      return {
        ...state,
        bio: event.data.bio === undefined ? state.bio : event.data.bio,
        experience: event.data.experience === undefined ? state.experience : event.data.experience,
      };
    case 'TutorPictureChanged':
      return { ...state, imagePath: event.data.imagePath };
    case 'TutorQualificationsSet':
      return { ...state, qualifications: event.data.qualifications };
    case 'TutorWeeklyHoursSet':
      return { ...state, weeklyHours: event.data.availability, timeZone: event.data.timeZone };
    case 'TutorOnboardingCompleted':
      return { ...state, onboardingCompleted: true };
    case 'TutorCalendarAccessLost':
      return { ...state, calendarAccessLost: true };
    case 'TutorCalendarAccessRestored':
      return { ...state, calendarAccessLost: false };
    case 'TutorRateChanged':
      return {
        ...state,
        rates: [...state.rates, { hourlyRateCents: event.data.hourlyRateCents, effectiveFrom: event.data.effectiveFrom }],
      };
    default:
      return state;
  }
};

/**
 * A tutor's id is their profile id (every `/api/tutors/{id}` path uses it). It is the same value
 * as the tutor's user id: one profile per account, and the stream is found from either.
 */
export const tutorStreamId = (tutorId: string) => `tutor-${tutorId}`;
