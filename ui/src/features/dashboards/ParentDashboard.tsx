import type { ParentStudent } from '@shared/accounts/accountApi.ts';
import { DASHBOARD_FAILED, type StudentDashboard } from '@shared/students/studentApi.ts';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { BookOpen, CircleAlert, GraduationCap, LineChart, RotateCw, UserCheck } from 'lucide-react';
import { useState } from 'react';
import { memberSince, timezoneFact } from '../../app/auth/facts.ts';
import { ProtectedRoute } from '../../app/auth/ProtectedRoute.tsx';
import { fullName, type User } from '../../app/auth/types.ts';
import { DashboardShell, WelcomeHeader } from '../../app/layout/DashboardShell.tsx';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { Skeleton } from '../../components/parts.tsx';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { accountsApi } from '../accounts/api.ts';
import { TimeZoneCard } from '../accounts/TimeZoneCard.tsx';
import { coursesApi, type StudentCourse } from '../courses/api.ts';
import { MAX_COURSES, offersRenewal } from '../courses/courseRules.ts';
import { TutorLeftNotice, useCourseTutors } from '../courses/TutorLeftNotice.tsx';
import { NotificationSettingsCard } from '../notices/NotificationSettingsCard.tsx';
import { AddCourseDialog } from '../purchases/AddCourseDialog.tsx';
import { CourseRenewal } from '../purchases/CourseRenewal.tsx';
import { savePendingEnrollment } from '../purchases/storage.ts';
import { BookSessionButton } from '../sessions/BookSessionButton.tsx';
import { CalendarFeedCard } from '../sessions/CalendarFeedCard.tsx';
import { CompletedSessionsPanel, UpcomingSessionsPanel } from '../sessions/StudentAreaSessions.tsx';
import { dashboardsApi } from './api.ts';
import { HelpDialog } from './HelpDialog.tsx';
import { SecondaryLoginDialog } from './SecondaryLoginDialog.tsx';
import { StudentAccountDialog } from './StudentAccountDialog.tsx';

/** /parent (parent only). */
export function ParentDashboardPage() {
  useDocumentTitle('Parent Dashboard');
  return <ProtectedRoute roles={['parent']}>{(user) => <ParentDashboard user={user} />}</ProtectedRoute>;
}

function ParentDashboard({ user }: { user: User }) {
  return (
    <DashboardShell user={user} badge={<Badge variant="secondary">Parent</Badge>}>
      <WelcomeHeader
        user={user}
        purpose="Your parent area is where you follow each child's sessions per package (used, booked and left) and renew packages."
        actions={<HelpDialog name={fullName(user)} studentId={null} />}
        facts={[
          { label: 'Email', value: user.email },
          { label: 'Phone', value: user.phone || 'Not given' },
          { label: 'Time zone', value: timezoneFact(user) },
          { label: 'Member since', value: memberSince(user) },
        ]}
      />
      <ParentStudents user={user} />
      <TimeZoneCard user={user} />
      <CalendarFeedCard />
      <NotificationSettingsCard />
    </DashboardShell>
  );
}

function ParentStudents({ user }: { user: User }) {
  const { data, isPending, isError, refetch, isRefetching } = useQuery({
    queryKey: accountsApi.parentStudentsKey,
    queryFn: accountsApi.parentStudents,
  });
  return (
    <section aria-labelledby="students-heading" className="mt-8 grid gap-6">
      <div>
        <h2 id="students-heading" className="text-xl font-semibold text-slate-900">
          Your students
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Each student's courses with their sessions used, booked and left to book. A view-only login follows courses, sessions and
          progress, and cannot buy, book or change anything.
        </p>
      </div>
      {isPending ? (
        <div className="space-y-3" role="status">
          <Skeleton className="h-40 w-full" />
          <span className="sr-only">Loading students</span>
        </div>
      ) : isError ? (
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertDescription>
            <p>Your students could not be loaded.</p>
            <Button variant="outline" size="sm" className="mt-2" disabled={isRefetching} onClick={() => void refetch()}>
              <RotateCw className={isRefetching ? 'animate-spin' : undefined} aria-hidden="true" />
              Try again
            </Button>
          </AlertDescription>
        </Alert>
      ) : data.students.length === 0 ? (
        <Card>
          <CardContent className="pt-6">
            <p className="text-sm text-slate-600">No students are linked to your account yet.</p>
          </CardContent>
        </Card>
      ) : (
        data.students.map((s) => <StudentCard key={s.id} user={user} student={s} />)
      )}
    </section>
  );
}

const awaitsTutor = (c: StudentCourse) => c.status === 'enrolled' && c.tutorId === null;

/** One student: name, grade, view-only login, courses with used/booked/left, progress link, Buy a package. */
function StudentCard({ user, student }: { user: User; student: ParentStudent }) {
  // Read again on every visit (reads never go stale by default): purchases, tutor choices and
  // bookings made on other pages show here. The courses use the courses key that those pages refresh.
  const dashboard = useQuery({
    queryKey: dashboardsApi.dashboardKey(student.id),
    queryFn: () => dashboardsApi.dashboard(student.id),
    refetchOnMount: 'always',
  });
  const courses = useQuery({
    queryKey: coursesApi.coursesKey(student.id),
    queryFn: () => coursesApi.courses(student.id),
    refetchOnMount: 'always',
  });
  const name = `${student.firstName} ${student.lastName}`.trim();
  const grade = student.grade?.trim() ? student.grade : '';
  return (
    <Card data-testid="parent-student" aria-label={`Student ${name}`}>
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <CardTitle as="h3">{name}</CardTitle>
          <CardDescription className="mt-1 flex flex-wrap items-center gap-2">
            <span>{grade || 'Grade not set'}</span>
            {student.hasSecondaryLogin ? (
              <Badge variant="success">View-only login{student.secondaryUsername ? `: ${student.secondaryUsername}` : ' set'}</Badge>
            ) : (
              <Badge variant="outline">No view-only login</Badge>
            )}
          </CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline" size="sm">
            <Link to="/student-info/$studentId" params={{ studentId: student.id }}>
              <LineChart aria-hidden="true" />
              View progress
            </Link>
          </Button>
          <SecondaryLoginDialog student={student} />
        </div>
      </CardHeader>
      <CardContent>
        {dashboard.isPending || courses.isPending ? (
          <div role="status" aria-label={`Loading ${name}'s courses`} className="grid gap-3">
            <Skeleton className="h-16 w-full" />
          </div>
        ) : dashboard.isError || courses.isError ? (
          <LoadError
            title={DASHBOARD_FAILED}
            onRetry={() => {
              void dashboard.refetch();
              void courses.refetch();
            }}
            retrying={dashboard.isFetching || courses.isFetching}
          />
        ) : (
          <StudentCourses user={user} student={student} data={{ ...dashboard.data, courses: courses.data }} />
        )}
      </CardContent>
    </Card>
  );
}

function StudentCourses({ user, student, data }: { user: User; student: ParentStudent; data: StudentDashboard }) {
  const tutors = useCourseTutors(student.id);
  const open = data.courses.filter((c) => c.status !== 'inactive');
  const pendingTutor = data.courses.filter(awaitsTutor);
  // The Add Course flow buys for the student it is given: this student, with their grade.
  const forStudent: User = {
    ...user,
    student: {
      id: student.id,
      grade: data.student.grade,
      isUniversityStudent: data.student.isUniversityStudent,
      schoolYearStartMonth: data.student.schoolYearStartMonth,
      hasSecondaryLogin: student.hasSecondaryLogin,
    },
  };
  /** The tutor-selection screen reads the saved enrollment: a course from this card is saved first. */
  const rememberForSetup = (course: StudentCourse) => {
    const purchase = data.purchases.find((p) => p.id === course.purchaseId);
    savePendingEnrollment({
      ...(purchase ? { amountPaid: purchase.finalAmount } : {}),
      packageId: course.packageId,
      studentId: course.studentId,
      subjectId: course.subjectId,
      purchaseId: course.purchaseId,
      subjectInfo: { name: course.subject.name },
      packageInfo: { name: course.package.name, sessionCount: course.package.sessionCount, totalPrice: purchase?.totalPrice ?? 0 },
    });
  };
  const canBuy = data.canPurchase && open.length < MAX_COURSES && pendingTutor.length === 0;
  const [gradeOpen, setGradeOpen] = useState(false);
  const noGrade = !data.student.grade.trim();

  return (
    <div className="grid gap-4">
      {pendingTutor[0] && data.canPurchase ? (
        <Alert>
          <CircleAlert aria-hidden="true" />
          <AlertTitle>Tutor Selection Required</AlertTitle>
          <AlertDescription>
            <p>
              Choose a tutor for {pendingTutor.map((c) => c.subject.name).join(', ')} to start {student.firstName}'s sessions.
            </p>
            <Button asChild size="sm" className="mt-3">
              <Link to="/tutor-selection" onClick={() => pendingTutor[0] && rememberForSetup(pendingTutor[0])}>
                Select a tutor
              </Link>
            </Button>
          </AlertDescription>
        </Alert>
      ) : null}
      {data.courses.length === 0 ? (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <BookOpen className="size-4 text-slate-400" aria-hidden="true" />
          No courses yet.
        </p>
      ) : (
        <ul className="grid gap-3">
          {data.courses.map((course) => {
            return (
              <li
                key={course.id}
                className="rounded-md border border-border p-4"
                aria-label={`Course ${course.subject.name}`}
                data-testid="parent-course"
              >
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0">
                    <h4 className="font-semibold text-slate-900">{course.subject.name}</h4>
                    <p className="text-sm text-slate-600">{course.package.name}</p>
                    <p className="mt-1 flex items-center gap-1.5 text-sm text-slate-700">
                      <UserCheck className="size-4 text-slate-500" aria-hidden="true" />
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
                {/* One meaning of the counts everywhere (issue 24 item 2): credits used, booked (still ahead), left to book. */}
                <dl
                  className="mt-3 grid grid-cols-3 gap-2 text-sm"
                  aria-label={`${course.subject.name} sessions of ${course.totalSessions}`}
                >
                  <div>
                    <dt className="text-xs text-slate-500">Used</dt>
                    <dd className="font-semibold text-slate-900" data-testid="course-used">
                      {course.sessionsUsed}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-xs text-slate-500">Booked</dt>
                    <dd className="font-semibold text-slate-900" data-testid="course-booked">
                      {course.sessionsBooked}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-xs text-slate-500">Left</dt>
                    <dd className="font-semibold text-slate-900" data-testid="course-remaining">
                      {Math.max(0, course.sessionsRemaining)}
                    </dd>
                  </div>
                </dl>
                <TutorLeftNotice
                  course={course}
                  status={tutors.get(course.id)}
                  canAct={data.canPurchase}
                  onChoose={() => rememberForSetup(course)}
                />
                {data.canPurchase ? (
                  <div className="mt-3 flex flex-wrap gap-2 empty:hidden">
                    <BookSessionButton course={course} viewerZone={user.timezone} />
                  </div>
                ) : null}
                {/* Package renewal (spec part 1 §1): Repurchase or End Course once every session is used. */}
                {data.canPurchase && offersRenewal(course) ? (
                  <CourseRenewal course={course} user={forStudent} subjectTaught={tutors.get(course.id)?.tutorsAvailable !== 0} />
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {data.courses.length > 0 ? (
        <UpcomingSessionsPanel
          sessions={data.sessions}
          courses={data.courses}
          zone={user.timezone}
          canAct={data.canPurchase}
          studentName={student.firstName}
        />
      ) : null}
      {data.courses.length > 0 ? (
        <CompletedSessionsPanel sessions={data.sessions} zone={user.timezone} studentName={student.firstName} studentId={student.id} />
      ) : null}
      {data.canPurchase ? (
        <div className="flex flex-wrap gap-2">
          {/* The levels and packages on offer follow the grade: set it first, change it any time. */}
          {noGrade ? null : canBuy ? <AddCourseDialog user={forStudent} courses={data.courses} label="Buy a package" /> : null}
          <Button variant={noGrade ? 'default' : 'outline'} size="sm" onClick={() => setGradeOpen(true)}>
            <GraduationCap aria-hidden="true" />
            {noGrade ? `Set ${student.firstName}'s grade` : 'Change grade'}
          </Button>
          <StudentAccountDialog user={forStudent} open={gradeOpen} onOpenChange={setGradeOpen} studentName={student.firstName} />
        </div>
      ) : null}
    </div>
  );
}
