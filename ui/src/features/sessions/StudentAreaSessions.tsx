import type { StudentCourse } from '@shared/courses/courseApi.ts';
import { type StudentSession, sortSessions } from '@shared/students/studentApi.ts';
import { useQuery } from '@tanstack/react-query';
import { CalendarCheck, CalendarClock, Video } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '../../components/ui/badge.tsx';
import { sessionDateTime } from '../../lib/sessionFormat.ts';
import { reviewKeys, reviewsApi } from '../reviews/api.ts';
import { SessionReviewAction } from '../reviews/SessionReview.tsx';
import { BookSessionButton, canBook } from './BookSessionButton.tsx';
import { type ActionableSession, StudentSessionActions } from './StudentSessionActions.tsx';

/**
 * A dashboard session (`@shared/students/studentApi.ts` shape) with what Cancel and Reschedule
 * need: its tutor comes from its course. Null for a session that cannot be acted on (completed,
 * cancelled, or its course unknown).
 */
export function actionableSession(session: StudentSession, courses: readonly StudentCourse[]): ActionableSession | null {
  if (session.status === 'completed' || session.status === 'cancelled') return null;
  const course = session.courseId ? courses.find((c) => c.id === session.courseId) : undefined;
  if (!course?.tutorId) return null;
  const tutor = session.tutor ?? course.tutor;
  return {
    id: session.id,
    date: session.date,
    subjectName: session.subject?.name ?? course.subject.name,
    tutorName: tutor ? `${tutor.firstName} ${tutor.lastName}`.trim() : 'your tutor',
    tutorId: course.tutorId,
  };
}

/** Only links Google Meet gives (https), never whatever a stored link says. */
export const safeMeetingLink = (link: string | null) => (link && /^https:\/\//i.test(link) ? link : null);

/** "Book a session" for each course that has a tutor and sessions remaining (the student area). */
export function BookableCourses({ courses, viewerZone }: { courses: readonly StudentCourse[]; viewerZone?: string }) {
  const bookable = courses.filter(canBook);
  if (bookable.length === 0) return null;
  return (
    <ul className="grid gap-2" aria-label="Courses you can book" data-testid="bookable-courses">
      {bookable.map((course) => (
        <li
          key={course.id}
          className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-border bg-slate-50 px-3 py-2"
        >
          <div className="min-w-0 text-sm">
            <p className="font-medium break-words text-slate-900">{course.subject.name}</p>
            <p className="text-slate-600">
              {course.tutor ? `${course.tutor.firstName} ${course.tutor.lastName} · ` : ''}
              {course.sessionsRemaining} {course.sessionsRemaining === 1 ? 'session' : 'sessions'} remaining
            </p>
          </div>
          <BookSessionButton course={course} viewerZone={viewerZone} />
        </li>
      ))}
    </ul>
  );
}

/**
 * One student's upcoming sessions with Join Google Meet, Reschedule and Cancel (the parent
 * dashboard, per student); `canAct` false shows them without actions.
 */
export function UpcomingSessionsPanel({
  sessions,
  courses,
  zone,
  canAct,
  studentName,
}: {
  sessions: readonly StudentSession[];
  courses: readonly StudentCourse[];
  zone: string;
  canAct: boolean;
  studentName: string;
}) {
  const { upcoming } = sortSessions(sessions);
  return (
    <section aria-label={`${studentName}'s upcoming sessions`} className="grid gap-2" data-testid="upcoming-sessions">
      <h4 className="text-sm font-semibold text-slate-900">Upcoming sessions</h4>
      {upcoming.length === 0 ? (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <CalendarClock className="size-4 text-slate-400" aria-hidden="true" />
          No upcoming sessions.
        </p>
      ) : (
        <ul className="grid gap-2">
          {upcoming.map((s) => {
            const actionable = canAct ? actionableSession(s, courses) : null;
            const link = safeMeetingLink(s.meetingLink);
            const subject = s.subject?.name ?? 'Tutoring session';
            return (
              <li key={s.id} className="rounded-md border border-border p-3" aria-label={`${subject} session`}>
                <SessionHeading
                  session={s}
                  subject={subject}
                  zone={zone}
                  badge={
                    <Badge variant="secondary" className="capitalize">
                      {s.status}
                    </Badge>
                  }
                />
                {link ? (
                  <a
                    href={link}
                    target="_blank"
                    rel="noreferrer noopener"
                    className="mt-2 inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 hover:underline"
                  >
                    <Video className="size-4" aria-hidden="true" />
                    Join Google Meet
                  </a>
                ) : null}
                {actionable ? <StudentSessionActions session={actionable} zone={zone} /> : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** How many of a student's completed sessions the parent dashboard shows; "View progress" has them all. */
export const PARENT_COMPLETED_SHOWN = 3;

/**
 * One student's latest completed sessions with the tutor's report (the parent dashboard, per
 * student, spec part 1 §1: a parent follows completed sessions), newest first.
 */
export function CompletedSessionsPanel({
  sessions,
  zone,
  studentName,
  studentId,
}: {
  sessions: readonly StudentSession[];
  zone: string;
  studentName: string;
  /** Given: each session offers "Rate this session" (or the family's rating, editable for 7 days). */
  studentId?: string;
}) {
  const { completed } = sortSessions(sessions);
  const shown = completed.slice(0, PARENT_COMPLETED_SHOWN);
  const reviews = useQuery({
    queryKey: reviewKeys.student(studentId ?? ''),
    queryFn: () => reviewsApi.ofStudent(studentId ?? ''),
    enabled: !!studentId && shown.length > 0,
  });
  const reviewOf = new Map((reviews.data ?? []).map((r) => [r.sessionId, r]));
  return (
    <section aria-label={`${studentName}'s completed sessions`} className="grid gap-2" data-testid="completed-sessions">
      <h4 className="text-sm font-semibold text-slate-900">
        Completed sessions
        {completed.length > shown.length ? <span className="font-normal text-slate-600"> (latest {shown.length})</span> : null}
      </h4>
      {shown.length === 0 ? (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <CalendarCheck className="size-4 text-slate-400" aria-hidden="true" />
          No completed sessions yet.
        </p>
      ) : (
        <ul className="grid gap-2">
          {shown.map((s) => {
            const subject = s.subject?.name ?? 'Tutoring session';
            return (
              <li key={s.id} className="rounded-md border border-border p-3" aria-label={`Completed ${subject} session`}>
                <SessionHeading session={s} subject={subject} zone={zone} badge={<Badge variant="success">Completed</Badge>} />
                {s.notes ? (
                  <div className="mt-2 rounded-md bg-slate-50 p-2 text-sm text-slate-700">
                    <p className="text-xs font-semibold text-slate-600">Tutor's report</p>
                    <p className="mt-1 break-words whitespace-pre-line">{s.notes}</p>
                  </div>
                ) : (
                  <p className="mt-2 text-xs text-slate-500">No report was written for this session.</p>
                )}
                {studentId && reviews.isSuccess ? (
                  <SessionReviewAction sessionId={s.id} review={reviewOf.get(s.id)} subject={subject} />
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** A dashboard session's first lines: the subject, when (in the viewer's zone), how long, with whom; its status badge. */
function SessionHeading({ session, subject, zone, badge }: { session: StudentSession; subject: string; zone: string; badge: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-2">
      <div className="min-w-0">
        <p className="font-medium break-words text-slate-900">{subject}</p>
        <p className="text-sm text-slate-600">
          {sessionDateTime(session.date, zone)} · {session.duration} min
          {session.tutor ? ` · ${session.tutor.firstName} ${session.tutor.lastName}` : ''}
        </p>
      </div>
      {badge}
    </div>
  );
}
