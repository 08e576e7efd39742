import { isCompleted, isUpcoming, type StudentSession } from '@shared/students/studentApi.ts';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { BookOpen, CircleAlert, UserCheck } from 'lucide-react';
import type { User } from '../../app/auth/types.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { Skeleton } from '../../components/parts.tsx';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { type CourseTutorStatus, coursesApi, type StudentCourse } from '../courses/api.ts';
import { MAX_COURSES, offersRenewal } from '../courses/courseRules.ts';
import { TutorLeftNotice, useCourseTutors } from '../courses/TutorLeftNotice.tsx';
import { AddCourseDialog } from './AddCourseDialog.tsx';
import { purchasesApi } from './api.ts';
import { CourseRenewal } from './CourseRenewal.tsx';
import { savePendingEnrollment } from './storage.ts';

const awaitsTutor = (c: StudentCourse) => c.status === 'enrolled' && c.tutorId === null;

/**
 * The courses part of the student dashboard (spec part 2 §2): the "Tutor Selection Required"
 * banner, Completed/Pending counts and the My Courses card with Add Course, from
 * GET /api/student/{id}/courses and the dashboard's sessions. Completed counts sessions held;
 * Pending, the sessions still to come in open courses: booked ones and credits not yet booked (a
 * booked hour is not a completed one, though its credit is no longer free).
 */
export function MyCourses({ user, canPurchase, sessions }: { user: User; canPurchase: boolean; sessions: readonly StudentSession[] }) {
  const studentId = user.student?.id ?? '';
  const courses = useQuery({
    queryKey: coursesApi.coursesKey(studentId),
    queryFn: () => coursesApi.courses(studentId),
    enabled: studentId !== '',
  });
  const packages = useQuery({ queryKey: purchasesApi.packagesKey, queryFn: purchasesApi.packages });
  const purchases = useQuery({
    queryKey: purchasesApi.purchasesKey(studentId),
    queryFn: () => purchasesApi.purchases(studentId),
    enabled: studentId !== '' && canPurchase,
  });
  const tutors = useCourseTutors(studentId);
  if (!studentId) return null;

  if (courses.isError) {
    return (
      <div className="mt-8">
        <LoadError title="Error loading dashboard" onRetry={() => void courses.refetch()} retrying={courses.isFetching} />
      </div>
    );
  }
  const list = courses.data ?? [];
  const open = list.filter((c) => c.status !== 'inactive');
  const pendingTutor = list.filter(awaitsTutor);
  const openIds = new Set(open.map((c) => c.id));
  const completed = sessions.filter(isCompleted).length;
  const pending =
    open.reduce((sum, c) => sum + c.sessionsRemaining, 0) +
    sessions.filter((s) => isUpcoming(s) && (s.courseId === null || openIds.has(s.courseId))).length;

  /** The tutor-selection screen reads the saved enrollment: a course from the dashboard is saved first. */
  const rememberForSetup = (course: StudentCourse) => {
    const purchase = purchases.data?.find((p) => p.id === course.purchaseId);
    const price = purchase?.totalPrice ?? packages.data?.find((p) => p.id === course.packageId)?.totalPrice;
    savePendingEnrollment({
      ...(purchase ? { amountPaid: purchase.finalAmount } : {}),
      ...(course.tutorId ? { tutorId: course.tutorId } : {}),
      packageId: course.packageId,
      studentId: course.studentId,
      subjectId: course.subjectId,
      purchaseId: course.purchaseId,
      subjectInfo: { name: course.subject.name },
      packageInfo: { name: course.package.name, sessionCount: course.package.sessionCount, totalPrice: price ?? 0 },
    });
  };

  return (
    <div className="mt-8 grid gap-6">
      {canPurchase && pendingTutor[0] ? (
        <Alert data-testid="tutor-selection-required">
          <CircleAlert aria-hidden="true" />
          <AlertTitle>Tutor Selection Required</AlertTitle>
          <AlertDescription>
            <p>Choose a tutor for {pendingTutor.map((c) => c.subject.name).join(', ')} to start your sessions.</p>
            <Button asChild size="sm" className="mt-3">
              <Link to="/tutor-selection" onClick={() => pendingTutor[0] && rememberForSetup(pendingTutor[0])}>
                Select a tutor
              </Link>
            </Button>
          </AlertDescription>
        </Alert>
      ) : null}
      <dl className="grid grid-cols-2 gap-4" aria-label="Sessions">
        <div className="rounded-[var(--radius-card)] border border-border bg-white p-4 shadow-sm">
          <dt className="text-sm text-slate-600">Completed</dt>
          <dd className="text-2xl font-bold text-slate-900" data-testid="completed-count">
            {courses.isPending ? <Skeleton className="h-8 w-10" /> : completed}
          </dd>
        </div>
        <div className="rounded-[var(--radius-card)] border border-border bg-white p-4 shadow-sm">
          <dt className="text-sm text-slate-600">Pending</dt>
          <dd className="text-2xl font-bold text-slate-900" data-testid="pending-count">
            {courses.isPending ? <Skeleton className="h-8 w-10" /> : pending}
          </dd>
        </div>
      </dl>
      <Card>
        <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
          <CardTitle as="h2">My Courses</CardTitle>
          {/* Spec §5: hidden at 4 courses; a course awaiting its tutor blocks a new enrolment (the banner says why). */}
          {canPurchase && courses.data && open.length < MAX_COURSES && pendingTutor.length === 0 ? (
            <AddCourseDialog user={user} courses={list} />
          ) : null}
        </CardHeader>
        <CardContent>
          {courses.isPending ? (
            <div role="status" aria-label="Loading courses" className="grid gap-3">
              <Skeleton className="h-20 w-full" />
              <Skeleton className="h-20 w-full" />
            </div>
          ) : list.length === 0 ? (
            <div className="flex flex-col items-center gap-2 py-6 text-center">
              <BookOpen className="size-8 text-slate-400" aria-hidden="true" />
              <p className="font-medium text-slate-900">No courses yet</p>
              <p className="text-sm text-slate-600">
                {canPurchase
                  ? 'Add a course to choose a package and a tutor.'
                  : 'Progress Tracking Only: courses bought for you show here.'}
              </p>
            </div>
          ) : (
            <ul className="grid gap-3">
              {list.map((course) => (
                <CourseRow
                  key={course.id}
                  course={course}
                  user={user}
                  canPurchase={canPurchase}
                  tutorStatus={tutors.get(course.id)}
                  onSetup={() => rememberForSetup(course)}
                />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

const statusLabel: Record<StudentCourse['status'], string> = { active: 'Active', enrolled: 'Enrolled', inactive: 'Inactive' };

/**
 * A course's credits in one wording everywhere (issue 24 item 2): used (completed or forfeited),
 * booked (sessions still ahead) and left to book, of the sessions the course holds.
 */
export function CreditCounts({ course }: { course: Pick<StudentCourse, 'sessionsUsed' | 'sessionsBooked' | 'sessionsRemaining'> }) {
  return (
    <span data-testid="course-credits">
      {course.sessionsUsed} used · {course.sessionsBooked} booked ·{' '}
      <span data-testid="sessions-remaining">{course.sessionsRemaining} left</span>
    </span>
  );
}

function CourseRow({
  course,
  user,
  canPurchase,
  tutorStatus,
  onSetup,
}: {
  course: StudentCourse;
  user: User;
  canPurchase: boolean;
  /** Whether the course's tutor left, and who else teaches its subject (issue 24: no dead ends). */
  tutorStatus: CourseTutorStatus | undefined;
  onSetup: () => void;
}) {
  const done = course.sessionsUsed;
  const percent = course.totalSessions > 0 ? Math.round((done / course.totalSessions) * 100) : 0;
  return (
    <li className="rounded-md border border-border p-4" aria-label={`Course ${course.subject.name}`} data-testid="course-row">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold text-slate-900">{course.subject.name}</h3>
          <p className="text-sm text-slate-600">{course.package.name}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {awaitsTutor(course) ? <Badge variant="outline">Setup Required</Badge> : null}
          <Badge variant={course.status === 'active' ? 'success' : course.status === 'inactive' ? 'outline' : 'secondary'}>
            {statusLabel[course.status]}
          </Badge>
        </div>
      </div>
      <div className="mt-3">
        <div
          role="progressbar"
          aria-label={`${course.subject.name} sessions used`}
          aria-valuemin={0}
          aria-valuemax={course.totalSessions}
          aria-valuenow={done}
          className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
        >
          <div className="h-full rounded-full bg-brand-700" style={{ width: `${percent}%` }} />
        </div>
        <p className="mt-1.5 text-sm text-slate-700">
          {course.totalSessions} {course.totalSessions === 1 ? 'session' : 'sessions'}: <CreditCounts course={course} />
        </p>
      </div>
      <p className="mt-2 flex items-center gap-1.5 text-sm text-slate-700">
        <UserCheck className="size-4 text-slate-500" aria-hidden="true" />
        {course.tutor ? `Tutor: ${course.tutor.firstName} ${course.tutor.lastName}` : 'Tutor assignment pending'}
      </p>
      <TutorLeftNotice course={course} status={tutorStatus} canAct={canPurchase} onChoose={onSetup} />
      {canPurchase && course.status === 'enrolled' && course.tutorId !== null && !tutorStatus?.tutorLeft ? (
        <Button asChild size="sm" variant="outline" className="mt-3">
          <Link to="/time-slot-selection" onClick={onSetup}>
            Finish setup
          </Link>
        </Button>
      ) : null}
      {canPurchase && awaitsTutor(course) ? (
        <Button asChild size="sm" variant="outline" className="mt-3">
          <Link to="/tutor-selection" onClick={onSetup}>
            Select a tutor
          </Link>
        </Button>
      ) : null}
      {canPurchase && offersRenewal(course) ? (
        <CourseRenewal course={course} user={user} subjectTaught={tutorStatus?.tutorsAvailable !== 0} />
      ) : null}
    </li>
  );
}
