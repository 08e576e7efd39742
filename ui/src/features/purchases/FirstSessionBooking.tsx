import { COURSE_NOT_FOUND } from '@shared/courses/courseDecider.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { api } from '../../app/api.ts';
import { site } from '../../app/site.ts';
import { toast } from '../../components/ui/use-toast.ts';
import { coursesApi } from '../courses/api.ts';
import { BookingDialog } from '../sessions/BookingDialog.tsx';
import { clearPendingEnrollment } from './storage.ts';

/** POST /api/student-courses/lookup {studentId, subjectId} → {id}: the course the saved enrollment paid for. */
const lookupCourse = (studentId: string, subjectId: string) =>
  api.send('POST', '/api/student-courses/lookup', { studentId, subjectId }, z.object({ id: z.string() }));

/**
 * "Book First Session Now" on /time-slot-selection (spec part 2 §4): the booking dialog for the
 * tutor just chosen and the course just bought. After the booking the course is set active (a
 * failure is only logged), the saved enrollment is cleared, "Welcome to Topmark!" is shown and the
 * student goes to /student.
 */
export function FirstSessionBooking({
  enrollment,
  tutorId,
  open,
  onOpenChange,
  viewerZone,
}: {
  enrollment: { studentId: string; subjectId: string; subjectInfo: { name: string } };
  tutorId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  viewerZone?: string;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const course = useQuery({
    queryKey: ['/api/student-courses/lookup', enrollment.studentId, enrollment.subjectId],
    queryFn: () => lookupCourse(enrollment.studentId, enrollment.subjectId),
    enabled: open,
    retry: false,
  });

  return (
    <BookingDialog
      open={open}
      onOpenChange={onOpenChange}
      tutorId={tutorId}
      variant="firstSession"
      viewerZone={viewerZone}
      course={course.data ? { id: course.data.id, subjectName: enrollment.subjectInfo.name } : null}
      missingCourseMessage={
        course.isError ? COURSE_NOT_FOUND : 'Missing student course enrollment ID. Please try again from the dashboard.'
      }
      onBooked={async () => {
        try {
          await coursesApi.activateCourse(enrollment.studentId, enrollment.subjectId);
        } catch (error) {
          console.warn('Could not set the course active after the first booking', error);
        }
        clearPendingEnrollment();
        void queryClient.invalidateQueries({ queryKey: coursesApi.coursesKey(enrollment.studentId) });
        void queryClient.invalidateQueries({ queryKey: coursesApi.enrollmentStatusKey });
        toast({
          title: `Welcome to ${site.name}!`,
          description: 'Your first session is booked. You will find it on your dashboard.',
          variant: 'success',
        });
        void navigate({ to: '/student' });
      }}
    />
  );
}
