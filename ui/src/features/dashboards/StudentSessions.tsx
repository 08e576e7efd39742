import type { StudentCourse } from '@shared/courses/courseApi.ts';
import { type StudentSession, sortSessions } from '@shared/students/studentApi.ts';
import { useQuery } from '@tanstack/react-query';
import { CalendarCheck, CalendarClock, Video } from 'lucide-react';
import type * as React from 'react';
import { useState } from 'react';
import type { User } from '../../app/auth/types.ts';
import { selectClasses } from '../../components/FieldMessage.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Label } from '../../components/ui/label.tsx';
import { reviewKeys, reviewsApi } from '../reviews/api.ts';
import { SessionReviewAction } from '../reviews/SessionReview.tsx';
import { actionableSession, BookableCourses } from '../sessions/StudentAreaSessions.tsx';
import { StudentSessionActions } from '../sessions/StudentSessionActions.tsx';

/** "Dec 3, 2026, 10:00 AM" in the user's zone (spec part 1 §9: US English, the user's zone). */
export function sessionTime(date: string, timeZone: string): string {
  const at = new Date(date);
  if (Number.isNaN(at.getTime())) return date;
  try {
    return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(at);
  } catch {
    return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(at);
  }
}

type CourseFilter = 'all' | 'active' | 'inactive';

/**
 * Upcoming Sessions (oldest first) and Completed Sessions (newest first, filtered by course status
 * and subject, scrolling past 4) of the student dashboard (spec part 2 §2, §4), from the
 * dashboard's sessions.
 */
export function StudentSessions({
  user,
  sessions,
  courses,
  canAct = false,
  reviewStudentId,
}: {
  user: User;
  sessions: readonly StudentSession[];
  courses: readonly StudentCourse[];
  /** Book, reschedule and cancel (the account holder; never a view-only login). */
  canAct?: boolean;
  /** Given (the student's own login, never a view-only one): completed sessions offer "Rate this session". */
  reviewStudentId?: string | null;
}) {
  const reviews = useQuery({
    queryKey: reviewKeys.student(reviewStudentId ?? ''),
    queryFn: () => reviewsApi.ofStudent(reviewStudentId ?? ''),
    enabled: !!reviewStudentId,
  });
  const reviewOf = new Map((reviews.data ?? []).map((r) => [r.sessionId, r]));
  const [status, setStatus] = useState<CourseFilter>('all');
  const [subject, setSubject] = useState('all');
  const { upcoming, completed } = sortSessions(sessions);
  const courseStatus = new Map(courses.map((c) => [c.id, c.status]));
  const subjects = [...new Map(completed.flatMap((s) => (s.subject ? [[s.subject.id, s.subject.name] as const] : []))).entries()];
  const shown = completed.filter((s) => {
    const state = s.courseId ? courseStatus.get(s.courseId) : undefined;
    if (status === 'active' && state === 'inactive') return false;
    if (status === 'inactive' && state !== 'inactive') return false;
    return subject === 'all' || s.subject?.id === subject;
  });

  return (
    <div className="mt-8 grid gap-6 lg:grid-cols-2">
      <Card role="region" aria-labelledby="upcoming-sessions-heading">
        <CardHeader className="gap-3">
          <CardTitle as="h2" id="upcoming-sessions-heading">
            Upcoming Sessions
          </CardTitle>
          {canAct ? <BookableCourses courses={courses} viewerZone={user.timezone} /> : null}
        </CardHeader>
        <CardContent>
          {upcoming.length === 0 ? (
            <p className="flex items-center gap-2 text-sm text-slate-600" data-testid="no-upcoming-sessions">
              <CalendarClock className="size-4 text-slate-400" aria-hidden="true" />
              No upcoming sessions.
            </p>
          ) : (
            <ul className="grid gap-3">
              {upcoming.map((s) => {
                const actionable = canAct ? actionableSession(s, courses) : null;
                return (
                  <SessionRow
                    key={s.id}
                    session={s}
                    timeZone={user.timezone}
                    actions={actionable ? <StudentSessionActions session={actionable} zone={user.timezone} /> : null}
                  />
                );
              })}
            </ul>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader className="gap-3">
          <CardTitle as="h2">Completed Sessions</CardTitle>
          <div className="flex flex-wrap gap-3">
            <div className="grid gap-1">
              <Label htmlFor="completed-course-status" className="text-xs">
                Course status
              </Label>
              <select
                id="completed-course-status"
                className={selectClasses}
                value={status}
                onChange={(e) => setStatus(e.target.value as CourseFilter)}
              >
                <option value="all">All</option>
                <option value="active">Active</option>
                <option value="inactive">Inactive</option>
              </select>
            </div>
            <div className="grid gap-1">
              <Label htmlFor="completed-subject" className="text-xs">
                Subject
              </Label>
              <select id="completed-subject" className={selectClasses} value={subject} onChange={(e) => setSubject(e.target.value)}>
                <option value="all">All subjects</option>
                {subjects.map(([id, name]) => (
                  <option key={id} value={id}>
                    {name}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </CardHeader>
        <CardContent>
          {shown.length === 0 ? (
            <p className="flex items-center gap-2 text-sm text-slate-600">
              <CalendarCheck className="size-4 text-slate-400" aria-hidden="true" />
              {completed.length === 0 ? 'No completed sessions yet.' : 'No completed sessions match these filters.'}
            </p>
          ) : (
            // More than 4: the list scrolls (spec part 2 §2).
            <ul className={`grid gap-3 ${shown.length > 4 ? 'max-h-96 overflow-y-auto pr-1' : ''}`} data-testid="completed-sessions">
              {shown.map((s) => (
                <SessionRow
                  key={s.id}
                  session={s}
                  timeZone={user.timezone}
                  actions={
                    reviewStudentId && reviews.isSuccess ? (
                      <SessionReviewAction sessionId={s.id} review={reviewOf.get(s.id)} subject={s.subject?.name ?? 'Tutoring session'} />
                    ) : undefined
                  }
                />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

export function SessionRow({ session, timeZone, actions }: { session: StudentSession; timeZone: string; actions?: React.ReactNode }) {
  return (
    <li className="rounded-md border border-border p-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium text-slate-900">{session.subject?.name ?? 'Tutoring session'}</p>
          <p className="text-sm text-slate-600">
            {sessionTime(session.date, timeZone)} · {session.duration} min
            {session.tutor ? ` · ${session.tutor.firstName} ${session.tutor.lastName}` : ''}
          </p>
        </div>
        <Badge variant={session.status === 'completed' ? 'success' : 'secondary'} className="capitalize">
          {session.status}
        </Badge>
      </div>
      {session.notes ? <p className="mt-2 text-sm text-slate-700">{session.notes}</p> : null}
      {session.meetingLink && /^https:\/\//i.test(session.meetingLink) && session.status !== 'completed' ? (
        <a
          href={session.meetingLink}
          target="_blank"
          rel="noreferrer noopener"
          className="mt-2 inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 hover:underline"
        >
          <Video className="size-4" aria-hidden="true" />
          Join Google Meet
        </a>
      ) : null}
      {actions}
    </li>
  );
}
