import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { CircleAlert, LifeBuoy, UserSearch } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { type CourseTutorStatus, coursesApi, type StudentCourse } from './api.ts';

/** Each open course's tutor standing (GET /api/student/{id}/course-tutors), by course id; empty while loading. */
export function useCourseTutors(studentId: string): ReadonlyMap<string, CourseTutorStatus> {
  const statuses = useQuery({
    queryKey: coursesApi.courseTutorsKey(studentId),
    queryFn: () => coursesApi.courseTutors(studentId),
    enabled: studentId !== '',
  });
  return new Map((statuses.data ?? []).map((s) => [s.courseId, s]));
}

/**
 * No dead ends (issue 24): a course whose tutor left (deactivated, account closed, no longer
 * teaching the subject) offers "Choose another tutor" through the tutor-selection step, its
 * sessions left carried over; when no tutor teaches the subject at all, it says so and points to
 * support for a refund of the unused sessions. Nothing for a course with its tutor.
 */
export function TutorLeftNotice({
  course,
  status,
  canAct,
  onChoose,
}: {
  course: Pick<StudentCourse, 'subject' | 'tutor' | 'tutorId' | 'status'>;
  status: CourseTutorStatus | undefined;
  /** The account that may choose (not a view-only login). */
  canAct: boolean;
  /** Saves the course as the pending enrollment the tutor-selection step reads. */
  onChoose: () => void;
}) {
  if (!status || course.status === 'inactive') return null;
  const subject = course.subject.name;
  const tutorName = course.tutor ? `${course.tutor.firstName} ${course.tutor.lastName}` : 'Your tutor';
  if (status.tutorsAvailable === 0 && (status.tutorLeft || course.tutorId === null)) {
    return (
      <Alert variant="destructive" className="mt-3" data-testid="course-no-tutor">
        <LifeBuoy aria-hidden="true" />
        <AlertTitle>No tutor teaches {subject} right now</AlertTitle>
        <AlertDescription>
          <p>
            {status.tutorLeft ? `${tutorName} is no longer available, and no other tutor teaches this subject at the moment. ` : ''}
            We are sorry. Contact support and we will refund the sessions you have not used, or help you move to another subject.
          </p>
          {canAct ? (
            <Button asChild size="sm" variant="outline" className="mt-3">
              <Link to="/contact">Contact support</Link>
            </Button>
          ) : null}
        </AlertDescription>
      </Alert>
    );
  }
  if (!status.tutorLeft) return null;
  return (
    <Alert className="mt-3" data-testid="course-tutor-left">
      <CircleAlert aria-hidden="true" />
      <AlertTitle>{tutorName} is no longer available</AlertTitle>
      <AlertDescription>
        <p>
          {tutorName} no longer teaches {subject} on Topmark. Choose another tutor to keep booking: the sessions you have left stay on your
          course, and sessions still booked with {tutorName} are cancelled and given back.
        </p>
        {canAct ? (
          <Button asChild size="sm" className="mt-3">
            <Link to="/tutor-selection" onClick={onChoose}>
              <UserSearch aria-hidden="true" />
              Choose another tutor
            </Link>
          </Button>
        ) : null}
      </AlertDescription>
    </Alert>
  );
}
