import { type CalendarPort, type CalendarStatus, calendarEventId, type TutorCalendar } from '../../adapters/calendar/calendarPort.ts';
import type { Clock } from '../../adapters/clock/clock.ts';
import type { Sql } from '../../adapters/db/db.ts';
import type { EventStore, Position } from '../../adapters/eventstore/eventStore.ts';
import type { FileStorage } from '../../adapters/files/fileStorage.ts';
import type { JobQueue } from '../../adapters/jobs/jobQueue.ts';
import { DEFAULT_TIMEZONE } from '../../domain/accounts/accountPolicy.ts';
import { TUTOR_APPLICATION_NOT_FOUND } from '../../domain/accounts/tutorApplicationDecider.ts';
import { assertTimeZone, validateWeeklyHours } from '../../domain/calendar/availability.ts';
import { DomainError } from '../../domain/kit/decider.ts';
import { knownTimeZoneOf } from '../../domain/kit/timeZones.ts';
import { billingPeriodOf, PAYOUT_TIME_ZONE, weekOf } from '../../domain/payouts/billingPeriod.ts';
import type { Qualification } from '../../domain/subjects/qualifications.ts';
import type { AdminListedUser, AdminOverview } from '../../domain/tutors/adminApi.ts';
import {
  type CalendarEventBody,
  type CalendarEventPatch,
  InvalidCalendarEventError,
  listBound,
  MAX_LIST_DAYS,
} from '../../domain/tutors/calendarEventsApi.ts';
import { INVITATION_NOT_FOUND } from '../../domain/tutors/invitationDecider.ts';
import type { AvailabilityEntry, CalendarStatusAnswer } from '../../domain/tutors/tutorApi.ts';
import { TUTOR_NOT_FOUND } from '../../domain/tutors/tutorDecider.ts';
import { APPLICANT_EMAIL_TAKEN, MANAGE_IN_GOOGLE } from '../../domain/tutors/tutorMessages.ts';
import { findUserByEmail } from '../../projections/accounts/queries.ts';
import {
  dashboardStats,
  findTutorPicture,
  findTutorProfile,
  listDirectory,
  listSubjectsWithTutors,
  listTutorInvitations,
  listTutorSubjects,
  subjectTutorStats,
  tutorTimeZone,
  userTimeZone,
} from '../../projections/tutors/queries.ts';
import type { CommandContext } from '../kit/commandContext.ts';
import { changeCalendarEvent, createCalendarEvent, deleteCalendarEvent, listCalendarEvents, readCalendarEvent } from './calendarEvents.ts';
import { acceptCalendarPush, type CalendarPush } from './calendarSync.ts';
import { editTutorProfile } from './editTutorProfile.ts';
import { inviteTutor } from './inviteTutor.ts';
import { resendTutorInvitation, revokeTutorInvitation } from './manageInvitation.ts';
import { openPictureUpload, receivePictureUpload, uploadPath, useUploadedPicture } from './profilePicture.ts';
import { type Review, reviewTutorApplication } from './reviewApplication.ts';
import { setQualifications } from './setQualifications.ts';
import {
  holdsHours,
  hoursSeriesOf,
  latestWeeklyHours,
  type OpenedTutorCalendar,
  openTutorCalendar,
  topmarkHoursSeries,
  type WeeklyHoursEntry,
  weeklyHoursOf,
  writeWeeklyHours,
  writtenHoursSeries,
} from './tutorCalendar.ts';
import { tutorHandlers } from './tutorHandlers.ts';

/** How long a write of the weekly hours waits for the calendar saga before answering "not yet". */
const HOURS_WRITE_TIMEOUT_MS = 10_000;
/** Unchanged hours saved longer ago than this, and missing from the calendar, are written by the request itself. */
const SAGA_GRACE_MS = 3_000;
/** The workflow an approval or a denial sets off (registration, shredding): the answer waits for it. */
const TUTOR_REVIEW = 'tutor_review';
/** Applicant and invitation ids are UUIDs: anything else is unknown without asking the store. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 86_400_000;

/** The weekly hours were recorded but the calendar did not show them in time (the route answers 503). */
export const HOURS_NOT_YET_IN_CALENDAR = 'not_yet_in_calendar';

/**
 * What the tutors feature needs, given by the composition root (system.ts): the store and the read
 * models, the clock, the calendar and file adapters, the site's URL (invitations link to it), the
 * tutor applications' read model (the accounts feature's) and the wait for a workflow.
 */
export interface TutorsModuleDeps {
  sql: Sql;
  store: EventStore;
  clock: Clock;
  calendar: CalendarPort;
  files: FileStorage;
  /** The job queue: a calendar's push message queues the tutor's sync job. */
  jobs: JobQueue;
  publicUrl: string;
  /** The tutor applications under review, as the accounts feature's read model lists them. */
  applications: {
    pending(): Promise<AdminListedUser[]>;
    find(applicantId: string): Promise<{ status: string; email: string } | null>;
    overview(): Promise<AdminOverview>;
  };
  /** Waits until the named projections (or workflows) passed the position; throws the lag error when they do not in time. */
  waitFor(projections: readonly [typeof TUTOR_REVIEW], position: Position | null, timeoutMs: number): Promise<void>;
}

const sameIds = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));

const toEntry = (h: WeeklyHoursEntry): AvailabilityEntry => ({
  id: h.id,
  dayOfWeek: h.dayOfWeek,
  startTime: h.startTime,
  endTime: h.endTime,
  timezone: h.timeZone,
  isActive: true,
});

/** The id if it can be an applicant's; else the application is unknown. */
function knownApplicant(id: string): string {
  if (!UUID.test(id)) throw new DomainError(TUTOR_APPLICATION_NOT_FOUND, 'not_found');
  return id;
}

/**
 * The tutors feature's use cases and queries (spec part 2 §7 "Tutor" and "Admin"), built once by
 * system.ts: the tutor's facts and calendar (which other features are given), weekly hours,
 * calendar status and onboarding, the profile, picture and subjects, the dashboard's figures, and
 * the admin's recruiting (invitations, applications under review). Who may do what is the routes'
 * part; every write answers the position its read-your-writes waits for.
 */
export function tutorsModule(deps: TutorsModuleDeps) {
  const { sql, store, clock, files } = deps;
  const handlers = tutorHandlers(store);
  const calendarDeps = { store, calendar: deps.calendar, clock };
  const signInUrl = `${deps.publicUrl.replace(/\/+$/, '')}/tutor-login`;

  /** The tutor's calendar, watched for lost and restored access (the tutor's stream read afresh). */
  const openCalendar = (tutorId: string) => openTutorCalendar(calendarDeps, tutorId);

  /** The tutor's calendar; 404 for an account without a tutor profile. */
  const existingCalendar = async (tutorId: string): Promise<OpenedTutorCalendar> => {
    const opened = await openCalendar(tutorId);
    if (!opened.tutor.exists) throw new DomainError(TUTOR_NOT_FOUND, 'not_found');
    return opened;
  };

  /** The zone the account chose, else the default (the tutor's own zone comes first where they have one). */
  const accountZone = async (userId: string) => (await userTimeZone(sql, userId)) ?? DEFAULT_TIMEZONE;

  const readHours = async (calendar: TutorCalendar, zone: string) =>
    weeklyHoursOf(await topmarkHoursSeries(calendar, clock.now()), zone).map(toEntry);

  /**
   * Waits until the calendar holds exactly the series of the tutor's latest weekly hours (the saga
   * wrote them); false when it does not in time. Hours saved again unchanged record nothing, so no
   * saga runs: when they were saved a while ago and the calendar lacks them (written while it was
   * unreachable), they are written here.
   */
  const hoursWritten = async (tutorId: string, calendar: TutorCalendar, unchanged: boolean): Promise<boolean> => {
    const latest = await latestWeeklyHours(store, tutorId);
    if (!latest) return true;
    const expected = hoursSeriesOf(latest).map((s) => s.id);
    const deadline = Date.now() + HOURS_WRITE_TIMEOUT_MS;
    let healed = !unchanged || clock.now().getTime() - Date.parse(latest.at) < SAGA_GRACE_MS;
    for (let delay = 50; ; delay = Math.min(delay * 2, 500)) {
      const written = (await writtenHoursSeries(calendar, clock.now())).map((e) => e.id);
      if (sameIds(written, expected)) return true;
      if (!healed) {
        healed = true;
        await writeWeeklyHours(calendarDeps, tutorId, latest.eventId);
        continue;
      }
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, delay));
    }
  };

  /** The tutor's profile as the read model shows it; 404 when there is none. */
  const profile = async (tutorId: string) => {
    const found = await findTutorProfile(sql, tutorId, clock.now());
    if (!found) throw new DomainError(TUTOR_NOT_FOUND, 'not_found');
    return found;
  };

  /**
   * An address that has meanwhile become an account's cannot become a tutor's too: refused (409)
   * before the approval is recorded, so the workflow does not fail on the e-mail claim. A hint
   * from the read models: the claim on the reservation stream still decides.
   */
  const refuseTakenAddress = async (applicantId: string) => {
    const application = await deps.applications.find(applicantId);
    if (application?.status === 'pending' && (await findUserByEmail(sql, application.email)))
      throw new DomainError(APPLICANT_EMAIL_TAKEN, 'conflict');
  };

  return {
    // ----- the tutor's facts and calendar, as other features are given them

    /** The tutor's stream folded to its head (from the cached fold): a zone change counts at once. */
    async facts(tutorId: string) {
      const state = await handlers.tutors.load(tutorId);
      return { exists: state.exists, timeZone: state.timeZone };
    },

    /** 404 for an unknown tutor. */
    async existingTutor(tutorId: string): Promise<void> {
      if (!(await handlers.tutors.load(tutorId)).exists) throw new DomainError(TUTOR_NOT_FOUND, 'not_found');
    },

    /** The tutor's calendar, watched for lost access (sessions' slots and calendar sync use it). */
    calendarOf: async (tutorId: string): Promise<TutorCalendar> => (await openCalendar(tutorId)).calendar,

    // ----- weekly hours, calendar status, onboarding

    /** The weekly hours: the recurring "Topmark Hours" of the tutor's calendar, in the tutor's zone (else the account's). */
    async weeklyHours(tutorId: string): Promise<AvailabilityEntry[]> {
      const opened = await existingCalendar(tutorId);
      return readHours(opened.calendar, opened.tutor.timeZone ?? (await accountZone(tutorId)));
    },

    /** The weekly hours and their zone checked (the given zone, else the account's): a refused body appends nothing. */
    async checkWeeklyHours(
      tutorId: string,
      body: { availability: Parameters<typeof validateWeeklyHours>[0]; timezone?: string | undefined },
    ) {
      const availability = validateWeeklyHours(body.availability);
      const timeZone =
        body.timezone === undefined ? assertTimeZone(await accountZone(tutorId)) : knownTimeZoneOf(body.timezone, 'timezone');
      return { availability, timeZone };
    },

    /**
     * Records the weekly hours and answers them as the calendar holds them once the saga wrote
     * them; saved but shown inactive while the calendar cannot be reached (written once it is
     * reconnected); HOURS_NOT_YET_IN_CALENDAR when the calendar did not show them in time.
     */
    async setWeeklyHours(
      tutorId: string,
      hours: { availability: ReturnType<typeof validateWeeklyHours>; timeZone: string },
      ctx: CommandContext,
    ): Promise<AvailabilityEntry[] | typeof HOURS_NOT_YET_IN_CALENDAR> {
      const { events } = await handlers.tutors.handle(tutorId, { type: 'SetWeeklyHours', data: { tutorId, ...hours } }, ctx);
      const opened = await existingCalendar(tutorId);
      const status = await opened.calendar.status();
      if (!status.accessible)
        return opened.tutor.weeklyHours.map((h, i) => ({ id: `unsynced-${i}`, ...h, timezone: hours.timeZone, isActive: false }));
      if (!(await hoursWritten(tutorId, opened.calendar, events.length === 0))) return HOURS_NOT_YET_IN_CALENDAR;
      return readHours(opened.calendar, hours.timeZone);
    },

    /** The tutor's calendar: opened (404 for an unknown tutor) before the route's party check. */
    existingCalendar,

    /** Whether Topmark can reach the calendar, and whether it holds weekly hours (the booking grid's next 30 days). */
    async calendarStatus(opened: OpenedTutorCalendar): Promise<CalendarStatusAnswer> {
      const port = deps.calendar;
      const status: CalendarStatus = await opened.calendar.status().catch(() => ({
        accessible: false,
        email: null,
        isConnected: opened.hasCredentials,
        timeZone: null,
        reason: 'unavailable' as const,
      }));
      const savedHours = opened.tutor.weeklyHours.length > 0;
      const hasAvailability = status.accessible ? await holdsHours(opened.calendar, clock.now()).catch(() => savedHours) : savedHours;
      return {
        accessible: status.accessible,
        email: status.email,
        isConnected: status.isConnected,
        hasAvailability,
        needsReauthorisation:
          status.reason === 'invalid_grant' || status.reason === 'unauthenticated' || (port.kind === 'google' && !opened.hasCredentials),
        serviceAccountEmail: port.serviceAccountEmail,
        provider: port.kind,
      };
    },

    /** Finishes onboarding (the decider lists what is missing); whether the calendar is reachable goes with the command. */
    async completeOnboarding(tutorId: string, ctx: CommandContext) {
      const opened = await existingCalendar(tutorId);
      const status = await opened.calendar.status().catch(() => null);
      return handlers.tutors.handle(
        tutorId,
        { type: 'CompleteOnboarding', data: { tutorId, calendarConnected: status?.accessible === true } },
        ctx,
      );
    },

    /**
     * The tutor's own calendar events (sandbox only: on Google the tutor keeps them in Google, 409);
     * 404 without a tutor profile. Every write goes through the calendar port, so the booking grid
     * follows at once.
     */
    async ownEvents(tutorId: string) {
      if (deps.calendar.kind !== 'sandbox') throw new DomainError(MANAGE_IN_GOOGLE, 'conflict');
      const opened = await existingCalendar(tutorId);
      const { calendar } = opened;
      return {
        /** Events ending after `from` and starting before `to` (default now and 30 days on; at most MAX_LIST_DAYS), with the tutor's zone. */
        async list(query: { from?: string | undefined; to?: string | undefined; singleEvents?: 'true' | 'false' | undefined }) {
          const from = (query.from && listBound(query.from)?.epochMilliseconds) || clock.now().getTime();
          const to = query.to ? (listBound(query.to)?.epochMilliseconds ?? 0) : from + 30 * DAY_MS;
          if (to <= from) throw new InvalidCalendarEventError({ field: 'to', message: 'to must be after from' });
          if (to - from > MAX_LIST_DAYS * DAY_MS)
            throw new InvalidCalendarEventError({ field: 'to', message: `A listing covers at most ${MAX_LIST_DAYS} days` });
          const items = await listCalendarEvents(calendar, {
            from: new Date(from).toISOString(),
            to: new Date(to).toISOString(),
            singleEvents: query.singleEvents !== 'false',
          });
          return { timeZone: opened.tutor.timeZone ?? (await accountZone(tutorId)), items };
        },
        read: (id: string) => readCalendarEvent(calendar, id),
        /** The id derives from the command id (the Idempotency-Key's, when one is sent): a retry makes no second event. */
        create: (body: CalendarEventBody, ctx: CommandContext) =>
          createCalendarEvent(calendar, calendarEventId(tutorId, 'event', ctx.commandId), body),
        change: (id: string, patch: CalendarEventPatch) => changeCalendarEvent(calendar, id, patch),
        remove: (id: string) => deleteCalendarEvent(calendar, id),
      };
    },

    // ----- profile, picture, subjects, dashboard

    profile,

    /** The tutor (or an admin) edits the bio and/or years of experience. */
    editProfile: (tutorId: string, changes: Parameters<typeof editTutorProfile>[2], ctx: CommandContext) =>
      editTutorProfile(handlers, tutorId, changes, ctx),

    /** Opens a one-time picture upload for the tutor (404 without a profile); answers the path to PUT the bytes to. */
    async openPictureUpload(tutorId: string, ctx: CommandContext) {
      const { id } = await profile(tutorId);
      const { token } = await openPictureUpload(files, id, ctx.now);
      return { uploadURL: uploadPath(token) };
    },

    /** The bytes of an open upload of this tutor. */
    receivePicture: (tutorId: string, token: string, bytes: Uint8Array) => receivePictureUpload(files, tutorId, token, bytes, clock.now()),

    /** Makes the uploaded picture the tutor's (404 without a profile). */
    async usePicture(tutorId: string, uploadUrl: string, ctx: CommandContext) {
      const { id } = await profile(tutorId);
      const { position } = await useUploadedPicture(handlers, files, id, uploadUrl, ctx);
      return { tutorId: id, position };
    },

    /** The tutor's picture: its type, bytes and content hash; null when there is none. */
    async picture(tutorId: string) {
      const found = await findTutorPicture(sql, tutorId);
      const bytes = found ? await files.get(found.key) : null;
      if (!found || !bytes) return null;
      const hash = /\/([0-9a-f]{64})\.[a-z]+$/.exec(found.key)?.[1] ?? '';
      return { contentType: found.contentType, bytes, hash };
    },

    /** Saves the subjects the tutor teaches (the catalogue on offer now goes with the command). */
    setSubjects: (tutorId: string, qualifications: Qualification[], ctx: CommandContext) =>
      setQualifications(handlers, sql, tutorId, qualifications, ctx),

    /** The subjects the tutor teaches, implied ones included. */
    subjects: (tutorId: string) => listTutorSubjects(sql, tutorId),

    /** This week's (the tutor's zone) and this billing period's (Toronto's, as payouts count) figures; 404 for an unknown tutor. */
    async dashboardStats(tutorId: string) {
      const timeZone = await tutorTimeZone(sql, tutorId);
      if (!timeZone) throw new DomainError(TUTOR_NOT_FOUND, 'not_found');
      const now = clock.now();
      const stats = await dashboardStats(sql, tutorId, {
        week: weekOf(now, timeZone),
        billingPeriod: billingPeriodOf(now, PAYOUT_TIME_ZONE),
      });
      if (!stats) throw new DomainError(TUTOR_NOT_FOUND, 'not_found');
      return stats;
    },

    // ----- the public directory

    /** Tutors families can choose (by subject and level). */
    directory: (filter: Parameters<typeof listDirectory>[1]) => listDirectory(sql, filter),

    /** One tutor of the directory; 404 when not listed. */
    async listedTutor(tutorId: string) {
      const [tutor] = await listDirectory(sql, { tutorId });
      if (!tutor) throw new DomainError(TUTOR_NOT_FOUND, 'not_found');
      return tutor;
    },

    /** Active subjects a listed tutor teaches. */
    subjectsWithTutors: () => listSubjectsWithTutors(sql),

    /** How many listed tutors teach each subject. */
    subjectTutorStats: () => subjectTutorStats(sql),

    /** A calendar's push message: the tutor's sync job is queued when it comes from a live channel of ours. */
    acceptCalendarPush: (push: CalendarPush) => acceptCalendarPush({ sql, jobs: deps.jobs }, push, clock.now()),

    // ----- recruiting (the admin's side)

    /** Tutor applications awaiting review. */
    applications: () => deps.applications.pending(),

    /** Accounts by role and applications awaiting review. */
    overview: () => deps.applications.overview(),

    /** Invites an address to apply (the mail saga sends the sign-in link). */
    invite: (email: string, ctx: CommandContext) => inviteTutor(handlers, email, signInUrl, ctx),

    /** Every invitation, newest first, as of now. */
    invitations: () => listTutorInvitations(sql, clock.now()),

    /** Mails an outstanding invitation again, or revokes it; 404 for an id that is no invitation's. */
    async manageInvitation(invitationId: string, action: 'resend' | 'revoke', ctx: CommandContext) {
      if (!UUID.test(invitationId)) throw new DomainError(INVITATION_NOT_FOUND, 'not_found');
      const act = action === 'resend' ? resendTutorInvitation : revokeTutorInvitation;
      return act(handlers, sql, invitationId, ctx);
    },

    /**
     * Reviews an application: an approval first refuses an address taken meanwhile; an approval or a
     * denial waits for its workflow (registration, shredding). Answers the position the answer's
     * read models must reach (the store's head after the workflow).
     */
    async review(applicantId: string, kind: Review, ctx: CommandContext): Promise<{ position: Position | null }> {
      if (kind === 'approve') await refuseTakenAddress(knownApplicant(applicantId));
      const { position } = await reviewTutorApplication(handlers, knownApplicant(applicantId), kind, ctx);
      if (kind === 'reject') return { position };
      await deps.waitFor([TUTOR_REVIEW], position, 10_000);
      return { position: await store.committedPosition() };
    },
  };
}

export type TutorsModule = ReturnType<typeof tutorsModule>;
