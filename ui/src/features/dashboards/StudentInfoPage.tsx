import { type CourseProgress, STUDENT_INFO_FAILED, type StudentInfo } from '@shared/students/studentApi.ts';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft, BookOpen, CalendarClock, Receipt } from 'lucide-react';
import { ProtectedRoute } from '../../app/auth/ProtectedRoute.tsx';
import type { User } from '../../app/auth/types.ts';
import { DashboardShell } from '../../app/layout/DashboardShell.tsx';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { Skeleton } from '../../components/parts.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { dollars } from '../purchases/storage.ts';
import { dashboardsApi } from './api.ts';
import { monthName } from './StudentAccountDialog.tsx';
import { SessionRow } from './StudentSessions.tsx';

/** Who may open a student info page; the server decides which student (theirs, their child's, one they teach). */
const INFO_ROLES = ['admin', 'tutor', 'parent', 'student', 'student_secondary'] as const;

/** /student-info/{studentId} (spec part 2 §2 "Student info page"). */
export function StudentInfoPage() {
  useDocumentTitle('Student Information');
  const { studentId } = useParams({ from: '/student-info/$studentId' });
  return <ProtectedRoute roles={INFO_ROLES}>{(user) => <StudentInfoView user={user} studentId={studentId} />}</ProtectedRoute>;
}

const roleBadge: Record<string, string> = {
  admin: 'Admin',
  tutor: 'Tutor',
  parent: 'Parent',
  student: 'Student',
  student_secondary: 'Student',
};

/** Spec part 2 §2: the page links back to /student and /parent (each page sends other roles to their own home). */
function BackLinks() {
  const link = 'inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 hover:underline';
  return (
    <nav aria-label="Back" className="mb-6 flex flex-wrap gap-4">
      <Link to="/student" className={link}>
        <ArrowLeft className="size-4" aria-hidden="true" />
        Student dashboard
      </Link>
      <Link to="/parent" className={link}>
        <ArrowLeft className="size-4" aria-hidden="true" />
        Parent dashboard
      </Link>
    </nav>
  );
}

function StudentInfoView({ user, studentId }: { user: User; studentId: string }) {
  const info = useQuery({
    queryKey: dashboardsApi.infoKey(studentId),
    queryFn: () => dashboardsApi.info(studentId),
    refetchOnMount: 'always',
  });
  return (
    <DashboardShell user={user} badge={<Badge variant="secondary">{roleBadge[user.role] ?? user.role}</Badge>}>
      <BackLinks />
      {info.isPending ? (
        <div role="status" aria-label="Loading student information" className="grid gap-4">
          <Skeleton className="h-28 w-full" />
          <Skeleton className="h-48 w-full" />
        </div>
      ) : info.isError ? (
        <LoadError
          title={STUDENT_INFO_FAILED}
          message={
            info.error.message.startsWith('403:') || info.error.message.startsWith('404:')
              ? 'This student does not exist or is not one you may see.'
              : undefined
          }
          onRetry={() => void info.refetch()}
          retrying={info.isFetching}
        />
      ) : (
        <InfoBody user={user} info={info.data} />
      )}
    </DashboardShell>
  );
}

function InfoBody({ user, info }: { user: User; info: StudentInfo }) {
  const { student, progress } = info;
  return (
    <div className="grid grid-cols-1 gap-6">
      <section aria-labelledby="student-heading" className="rounded-[var(--radius-card)] border border-border bg-white p-6 shadow-sm">
        <h1 id="student-heading" className="text-2xl font-bold tracking-tight text-slate-900">
          {student.firstName} {student.lastName}
        </h1>
        <dl className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Fact label="Grade" value={student.grade.trim() ? student.grade : 'Not set'} />
          <Fact label="School year starts" value={monthName(student.schoolYearStartMonth) ?? 'Not set'} />
          <Fact label="University student" value={student.isUniversityStudent ? 'Yes' : 'No'} />
          <Fact label="Courses" value={String(progress.courses.length)} />
        </dl>
        {student.notes ? <p className="mt-4 text-sm text-slate-700">{student.notes}</p> : null}
      </section>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Academic progress</CardTitle>
          <CardDescription>
            {progress.totalSessions} sessions: {progress.usedSessions} used · {progress.bookedSessions} booked ·{' '}
            {progress.remainingSessions} left · {progress.completedSessions} completed · {progress.upcomingSessions} upcoming
          </CardDescription>
        </CardHeader>
        <CardContent>
          {progress.courses.length === 0 ? (
            <p className="flex items-center gap-2 text-sm text-slate-600">
              <BookOpen className="size-4 text-slate-400" aria-hidden="true" />
              No courses yet.
            </p>
          ) : (
            <ul className="grid gap-3">
              {progress.courses.map((course) => (
                <ProgressRow key={course.courseId} course={course} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Packages and purchases</CardTitle>
        </CardHeader>
        <CardContent>
          {info.courses.length === 0 && info.purchases.length === 0 ? (
            <p className="flex items-center gap-2 text-sm text-slate-600">
              <Receipt className="size-4 text-slate-400" aria-hidden="true" />
              No packages yet.
            </p>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Packages by course</caption>
                <thead className="text-xs text-slate-500 uppercase">
                  <tr>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Subject
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Package
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Sessions
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      Paid
                    </th>
                    <th scope="col" className="py-2 font-medium">
                      Status
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {info.courses.map((course) => {
                    const purchase = info.purchases.find((p) => p.id === course.purchaseId);
                    return (
                      <tr key={course.id}>
                        <td className="py-2 pr-4 font-medium text-slate-900">{course.subject.name}</td>
                        <td className="py-2 pr-4 text-slate-700">{course.package.name}</td>
                        <td className="py-2 pr-4 text-slate-700">
                          {course.sessionsUsed} used · {course.sessionsBooked} booked · {course.sessionsRemaining} left
                        </td>
                        <td className="py-2 pr-4 text-slate-700">{purchase ? dollars(purchase.finalAmount) : '—'}</td>
                        <td className="py-2 capitalize text-slate-700">{course.status}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Recent sessions</CardTitle>
        </CardHeader>
        <CardContent>
          {info.recentSessions.length === 0 ? (
            <p className="flex items-center gap-2 text-sm text-slate-600">
              <CalendarClock className="size-4 text-slate-400" aria-hidden="true" />
              No sessions yet.
            </p>
          ) : (
            <ul className="grid gap-3">
              {info.recentSessions.map((s) => (
                <SessionRow key={s.id} session={s} timeZone={user.timezone} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-1 text-sm font-medium text-slate-900">{value}</dd>
    </div>
  );
}

export function ProgressRow({ course }: { course: CourseProgress }) {
  const percent = course.totalSessions > 0 ? Math.round((course.usedSessions / course.totalSessions) * 100) : 0;
  return (
    <li className="rounded-md border border-border p-4" data-testid="progress-row">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 className="font-semibold text-slate-900">{course.subject.name}</h3>
          <p className="text-sm text-slate-600">
            {course.tutor ? `Tutor: ${course.tutor.firstName} ${course.tutor.lastName}` : 'Tutor assignment pending'}
          </p>
        </div>
        <Badge
          variant={course.status === 'active' ? 'success' : course.status === 'inactive' ? 'outline' : 'secondary'}
          className="capitalize"
        >
          {course.status}
        </Badge>
      </div>
      <div
        role="progressbar"
        aria-label={`${course.subject.name} sessions used`}
        aria-valuemin={0}
        aria-valuemax={course.totalSessions}
        aria-valuenow={course.usedSessions}
        className="mt-3 h-2 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-brand-700" style={{ width: `${percent}%` }} />
      </div>
      <dl className="mt-2 grid grid-cols-3 gap-2 text-sm sm:grid-cols-6">
        <CountFact label="Total" value={course.totalSessions} />
        <CountFact label="Used" value={course.usedSessions} />
        <CountFact label="Booked" value={course.bookedSessions} />
        <CountFact label="Left" value={course.remainingSessions} />
        <CountFact label="Completed" value={course.completedSessions} />
        <CountFact label="Upcoming" value={course.upcomingSessions} />
      </dl>
    </li>
  );
}

function CountFact({ label, value }: { label: string; value: number }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="font-semibold text-slate-900">{value}</dd>
    </div>
  );
}
