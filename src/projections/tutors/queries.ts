import type { Sql } from '../../adapters/db/db.ts';
import { type RateChange, rateInForce } from '../../domain/payouts/hourlyRate.ts';
import { shownRating } from '../../domain/reviews/review.ts';
import type { GradeLevel } from '../../domain/subjects/gradeLevels.ts';
import type { TutorInvitationListEntry } from '../../domain/tutors/adminApi.ts';
import { pictureUrl } from '../../domain/tutors/picture.ts';
import type { DashboardStats, TutorListEntry, TutorProfile, TutorSubject } from '../../domain/tutors/tutorApi.ts';

/**
 * The tutors read models' queries: a tutor's own profile and subjects, the public directory, the
 * picture to serve, the dashboard figures. A tutor's id is their profile id, equal to their user id.
 */

/** Levels in rank order, as `gradeLevelRank` has them: `array_position` over it compares levels in SQL. */
const LEVELS = ['grade_10_under', 'grade_11_12', 'university'];

/**
 * The tutor's rate history, in the order recorded, from the payouts read model's `payout_rates`
 * (payouts own rates; the profile's rate at creation counts there from the beginning): what
 * `rateInForce` reads. Read here because a feature's queries do not import another's.
 */
async function rateHistory(sql: Sql, tutorId: string): Promise<RateChange[]> {
  const rows = await sql<{ effective_from: Date; hourly_rate_cents: number }[]>`
    SELECT effective_from, hourly_rate_cents FROM payout_rates WHERE tutor_id = ${tutorId} ORDER BY position`;
  return rows.map((r) => ({ hourlyRateCents: r.hourly_rate_cents, effectiveFrom: r.effective_from.toISOString() }));
}

interface ProfileRead {
  id: string;
  user_id: string;
  onboarding_completed: boolean;
  bio: string | null;
  experience: number | null;
  profile_image_path: string | null;
  hourly_rate_cents: number | null;
}

/** A live tutor's profile (an account deleted since is not found), with the rate in force `now`; null when there is none. */
export async function findTutorProfile(sql: Sql, tutorId: string, now: Date = new Date()): Promise<TutorProfile | null> {
  const [[row], history] = await Promise.all([
    sql<ProfileRead[]>`
      SELECT id, user_id, onboarding_completed, bio, experience, profile_image_path, hourly_rate_cents
      FROM tutors WHERE id = ${tutorId} AND is_active`,
    rateHistory(sql, tutorId),
  ]);
  if (!row) return null;
  // The profile's own rate at creation stands in until the payouts read model has caught up with it.
  const rateCents = rateInForce(history, now) ?? row.hourly_rate_cents;
  return {
    id: row.id,
    userId: row.user_id,
    onboardingCompleted: row.onboarding_completed,
    bio: row.bio,
    experience: row.experience,
    profileImagePath: pictureUrl(row.id, row.profile_image_path),
    hourlyRate: rateCents === null ? null : rateCents / 100,
  };
}

/** The storage key and type of a live tutor's picture, or null when there is none to serve. */
export async function findTutorPicture(sql: Sql, tutorId: string): Promise<{ key: string; contentType: string } | null> {
  const [row] = await sql<{ profile_image_path: string | null; profile_image_type: string | null }[]>`
    SELECT profile_image_path, profile_image_type FROM tutors WHERE id = ${tutorId} AND is_active`;
  if (!row?.profile_image_path || !row.profile_image_type) return null;
  return { key: row.profile_image_path, contentType: row.profile_image_type };
}

/** What a tutor teaches, implied subjects included, in the catalogue's order (category, level, name). */
export async function listTutorSubjects(sql: Sql, tutorId: string): Promise<TutorSubject[]> {
  const rows = await sql<{ subject_id: string; name: string | null; max_grade_level: GradeLevel }[]>`
    SELECT ts.subject_id, s.name, ts.max_grade_level
    FROM tutor_subjects ts LEFT JOIN subjects s ON s.id = ts.subject_id
    WHERE ts.tutor_id = ${tutorId}
    ORDER BY s.category NULLS LAST, array_position(${LEVELS}::text[], s.grade_level), s.name, ts.subject_id`;
  return rows.map((r) => ({ subjectId: r.subject_id, name: r.name ?? r.subject_id, maxGradeLevel: r.max_grade_level }));
}

interface DirectoryRead {
  id: string;
  first_name: string;
  last_name: string;
  bio: string | null;
  experience: number | null;
  profile_image_path: string | null;
  subjects: { id: string; name: string }[];
  review_count: number | null;
  rating_total: number | null;
  completed_sessions: number | null;
}

export interface DirectoryFilter {
  /** Only tutors qualified for this subject. */
  subjectId?: string | undefined;
  /** Only tutors whose level for the subject (any subject without one) ranks at or above this one. */
  gradeLevel?: GradeLevel | undefined;
  /** One tutor (GET /api/tutors/{id}). */
  tutorId?: string | undefined;
}

/**
 * The public directory: approved tutors (a profile exists only after approval) whose account is
 * live (a deleted account has no `users` row and an inactive profile; an account an admin
 * deactivated cannot sign in to teach, so it is not offered either) and whose onboarding is
 * completed (until then the profile lacks the bio, subjects and hours a family chooses by).
 * Names come from the users read model, so a name change shows at once. Active subjects only.
 * Rating, review count and completed sessions come from the reviews read model (`tutor_review_stats`):
 * the average to one decimal from the third review (null before: "New"), `totalSessions` counts
 * completed sessions.
 */
export async function listDirectory(sql: Sql, filter: DirectoryFilter = {}): Promise<TutorListEntry[]> {
  const subjectId = filter.subjectId ?? null;
  const level = filter.gradeLevel ?? null;
  const tutorId = filter.tutorId ?? null;
  const rows = await sql<DirectoryRead[]>`
    SELECT t.id, u.first_name, u.last_name, t.bio, t.experience, t.profile_image_path,
      COALESCE((
        SELECT json_agg(json_build_object('id', s.id, 'name', s.name)
                        ORDER BY s.category NULLS LAST, array_position(${LEVELS}::text[], s.grade_level), s.name, s.id)
        FROM tutor_subjects ts JOIN subjects s ON s.id = ts.subject_id AND s.is_active
        WHERE ts.tutor_id = t.id), '[]'::json) AS subjects,
      rs.review_count, rs.rating_total, rs.completed_sessions
    FROM tutors t JOIN users u ON u.id = t.user_id AND u.role = 'tutor' AND u.deactivated_at IS NULL
    LEFT JOIN tutor_review_stats rs ON rs.tutor_id = t.id
    WHERE t.is_active AND t.onboarding_completed
      AND (${tutorId}::text IS NULL OR t.id = ${tutorId})
      AND (${subjectId}::text IS NULL AND ${level}::text IS NULL OR EXISTS (
        SELECT 1 FROM tutor_subjects q JOIN subjects qs ON qs.id = q.subject_id AND qs.is_active
        WHERE q.tutor_id = t.id
          AND (${subjectId}::text IS NULL OR q.subject_id = ${subjectId})
          AND (${level}::text IS NULL
               OR array_position(${LEVELS}::text[], q.max_grade_level) >= array_position(${LEVELS}::text[], ${level}::text))))
    ORDER BY u.first_name, u.last_name, t.id`;
  return rows.map((r) => ({
    id: r.id,
    user: { firstName: r.first_name, lastName: r.last_name, profileImage: pictureUrl(r.id, r.profile_image_path) },
    rating: shownRating(r.review_count ?? 0, r.rating_total ?? 0),
    totalSessions: r.completed_sessions ?? 0,
    bio: r.bio,
    subjects: r.subjects,
    experience: r.experience,
    reviewCount: r.review_count ?? 0,
  }));
}

/** The spans the dashboard counts in: instants, half-open `[start, end)`. */
export interface StatsSpans {
  week: { start: Date; end: Date };
  billingPeriod: { start: Date; end: Date };
}

/**
 * The tutor dashboard's figures over the given week and billing period (computed in the tutor's
 * zone by `billingPeriodOf`/`weekOf`), from the sessions and courses read models:
 * - active students: students with a course (enrolled or active) whose tutor this is;
 * - sessions this week: sessions starting in the week that were not cancelled;
 * - hours and earnings this billing period: the payable hours — sessions completed, or cancelled
 *   too late (the credit forfeited, the tutor paid) — starting in the period, each paid one hour
 *   at the rate in force at its start, as payouts pay it (no rate in force: nothing earned).
 */
export async function dashboardStats(sql: Sql, tutorId: string, spans: StatsSpans): Promise<DashboardStats | null> {
  const [tutor] = await sql<{ hourly_rate_cents: number | null }[]>`
    SELECT hourly_rate_cents FROM tutors WHERE id = ${tutorId} AND is_active`;
  if (!tutor) return null;
  const [[row], payable, history] = await Promise.all([
    sql<{ active_students: string; sessions_this_week: string; payable_minutes: string | null }[]>`
      SELECT
        (SELECT count(DISTINCT student_id) FROM student_courses WHERE tutor_id = ${tutorId} AND status <> 'inactive') AS active_students,
        (SELECT count(*) FROM sessions WHERE tutor_id = ${tutorId} AND status <> 'cancelled'
           AND start_at >= ${spans.week.start} AND start_at < ${spans.week.end}) AS sessions_this_week,
        (SELECT sum(duration) FROM sessions WHERE tutor_id = ${tutorId}
           AND (status = 'completed' OR (status = 'cancelled' AND cancel_credit = 'forfeited'))
           AND start_at >= ${spans.billingPeriod.start} AND start_at < ${spans.billingPeriod.end}) AS payable_minutes`,
    sql<{ start_at: Date }[]>`
      SELECT start_at FROM sessions WHERE tutor_id = ${tutorId}
        AND (status = 'completed' OR (status = 'cancelled' AND cancel_credit = 'forfeited'))
        AND start_at >= ${spans.billingPeriod.start} AND start_at < ${spans.billingPeriod.end}`,
    rateHistory(sql, tutorId),
  ]);
  const minutes = Number(row?.payable_minutes ?? 0);
  // Each payable session is one hour at the rate in force at its start (the profile's rate at creation until payouts have it).
  const earnedCents = payable.reduce((sum, s) => sum + (rateInForce(history, s.start_at) ?? tutor.hourly_rate_cents ?? 0), 0);
  return {
    activeStudents: Number(row?.active_students ?? 0),
    sessionsThisWeek: Number(row?.sessions_this_week ?? 0),
    hoursThisBillingPeriod: Math.round((minutes / 60) * 100) / 100,
    earningsThisBillingPeriod: earnedCents / 100,
  };
}

/** The zone the tutor's dashboard counts weeks and periods in: their account's; null when the tutor is unknown. */
export async function tutorTimeZone(sql: Sql, tutorId: string): Promise<string | null> {
  const [row] = await sql<{ timezone: string }[]>`
    SELECT u.timezone FROM tutors t JOIN users u ON u.id = t.user_id WHERE t.id = ${tutorId} AND t.is_active`;
  return row?.timezone ?? null;
}

/** The zone an account chose (null: none on file); a tutor's hours fall back to it. */
export async function userTimeZone(sql: Sql, userId: string): Promise<string | null> {
  const [user] = await sql<{ timezone: string | null }[]>`SELECT timezone FROM users WHERE id = ${userId}`;
  return user?.timezone ?? null;
}

/**
 * The directory's rule for a listed tutor (see `listDirectory`), over tutor `t` joined to user `u`.
 * Every "is there a tutor" question below asks it, so the shop, the course cards and the directory agree.
 */
const LISTED = "t.is_active AND t.onboarding_completed AND u.role = 'tutor' AND u.deactivated_at IS NULL";

/**
 * Active subjects that at least one tutor of the public directory teaches (GET
 * /api/subjects/with-tutors): the directory's rule for a listed tutor, over the subjects table.
 */
export async function listSubjectsWithTutors(
  sql: Sql,
): Promise<{ id: string; name: string; description: string | null; category: string | null; gradeLevel: GradeLevel }[]> {
  const rows = await sql<{ id: string; name: string; description: string | null; category: string | null; grade_level: GradeLevel }[]>`
    SELECT s.id, s.name, s.description, s.category, s.grade_level FROM subjects s
    WHERE s.is_active AND EXISTS (
      SELECT 1 FROM tutor_subjects ts
      JOIN tutors t ON t.id = ts.tutor_id
      JOIN users u ON u.id = t.user_id
      WHERE ts.subject_id = s.id AND ${sql.unsafe(LISTED)})
    ORDER BY s.category NULLS LAST, array_position(${LEVELS}::text[], s.grade_level), s.name, s.id`;
  return rows.map((r) => ({ id: r.id, name: r.name, description: r.description, category: r.category, gradeLevel: r.grade_level }));
}

/** Whether at least one listed tutor teaches the subject (the checkout's guard: nothing is sold that no one can teach). */
export async function subjectHasListedTutor(sql: Sql, subjectId: string): Promise<boolean> {
  const [row] = await sql<{ listed: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM tutor_subjects ts
      JOIN tutors t ON t.id = ts.tutor_id
      JOIN users u ON u.id = t.user_id
      WHERE ts.subject_id = ${subjectId} AND ${sql.unsafe(LISTED)}) AS listed`;
  return row?.listed ?? false;
}

/** Each of the given subjects' listed tutors (ids): a subject no listed tutor teaches is absent. */
export async function listedTutorsBySubject(sql: Sql, subjectIds: readonly string[]): Promise<Map<string, string[]>> {
  if (subjectIds.length === 0) return new Map();
  const rows = await sql<{ subject_id: string; tutor_ids: string[] }[]>`
    SELECT ts.subject_id, array_agg(t.id ORDER BY t.id) AS tutor_ids
    FROM tutor_subjects ts JOIN tutors t ON t.id = ts.tutor_id JOIN users u ON u.id = t.user_id
    WHERE ts.subject_id = ANY(${subjectIds as string[]}::text[]) AND ${sql.unsafe(LISTED)}
    GROUP BY ts.subject_id`;
  return new Map(rows.map((r) => [r.subject_id, r.tutor_ids]));
}

/**
 * The Subjects page's figures (GET /api/subjects/tutor-stats): every active subject with the ids of
 * the listed tutors teaching it, and those tutors' review counts and rating totals, so a page that
 * groups subjects (Mathematics: every level and course) counts each tutor once and averages their
 * reviews (shown from the third, as the tutor cards do).
 */
export async function subjectTutorStats(sql: Sql): Promise<{
  subjects: { subjectId: string; name: string; category: string | null; gradeLevel: GradeLevel; tutorIds: string[] }[];
  tutors: { tutorId: string; reviewCount: number; ratingTotal: number }[];
}> {
  const subjects = await sql<{ id: string; name: string; category: string | null; grade_level: GradeLevel; tutor_ids: string[] }[]>`
    SELECT s.id, s.name, s.category, s.grade_level,
      COALESCE((SELECT array_agg(t.id ORDER BY t.id)
        FROM tutor_subjects ts JOIN tutors t ON t.id = ts.tutor_id JOIN users u ON u.id = t.user_id
        WHERE ts.subject_id = s.id AND ${sql.unsafe(LISTED)}), '{}') AS tutor_ids
    FROM subjects s WHERE s.is_active
    ORDER BY s.category NULLS LAST, array_position(${LEVELS}::text[], s.grade_level), s.name, s.id`;
  const tutors = await sql<{ id: string; review_count: number | null; rating_total: number | null }[]>`
    SELECT t.id, rs.review_count, rs.rating_total
    FROM tutors t JOIN users u ON u.id = t.user_id LEFT JOIN tutor_review_stats rs ON rs.tutor_id = t.id
    WHERE ${sql.unsafe(LISTED)} ORDER BY t.id`;
  return {
    subjects: subjects.map((s) => ({
      subjectId: s.id,
      name: s.name,
      category: s.category,
      gradeLevel: s.grade_level,
      tutorIds: s.tutor_ids,
    })),
    tutors: tutors.map((t) => ({ tutorId: t.id, reviewCount: t.review_count ?? 0, ratingTotal: t.rating_total ?? 0 })),
  };
}

interface InvitationRead {
  id: string;
  email: string;
  status: 'sent' | 'accepted' | 'revoked';
  created_at: Date;
  expires_at: Date;
  last_sent_at: Date | null;
  sent_count: number | null;
  invited_by_name: string | null;
  accepted_at: Date | null;
  revoked_at: Date | null;
}

/** The console's invitations list, newest first; a sent invitation past its date reads `expired`. */
export async function listTutorInvitations(sql: Sql, now: Date, limit = 200): Promise<TutorInvitationListEntry[]> {
  const rows = await sql<InvitationRead[]>`
    SELECT i.id, i.email, i.status, i.created_at, i.expires_at, i.last_sent_at, i.sent_count, i.accepted_at, i.revoked_at,
      nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') AS invited_by_name
    FROM tutor_invitations i LEFT JOIN users u ON u.id = i.invited_by
    ORDER BY i.created_at DESC, i.id LIMIT ${limit}`;
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    status: r.status === 'sent' ? (r.expires_at.getTime() > now.getTime() ? 'outstanding' : 'expired') : r.status,
    invitedAt: r.created_at.toISOString(),
    expiresAt: r.expires_at.toISOString(),
    lastSentAt: (r.last_sent_at ?? r.created_at).toISOString(),
    sentCount: r.sent_count ?? 1,
    invitedByName: r.invited_by_name,
    acceptedAt: r.accepted_at?.toISOString() ?? null,
    revokedAt: r.revoked_at?.toISOString() ?? null,
  }));
}

/**
 * Where an invitation's decisions are taken: its stream (rows from before the column was added:
 * null, and the caller derives it from the address). A look-up only: the stream decides.
 */
export async function findTutorInvitationStream(
  sql: Sql,
  invitationId: string,
): Promise<{ streamId: string | null; email: string } | null> {
  const [row] = await sql<{ stream_id: string | null; email: string }[]>`
    SELECT stream_id, email FROM tutor_invitations WHERE id = ${invitationId}`;
  return row ? { streamId: row.stream_id, email: row.email } : null;
}
