import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, useNavigate } from '@tanstack/react-router';
import { ArrowLeft, CalendarPlus, Clock } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import { useCurrentUser } from '../../app/auth/useCurrentUser.ts';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { Loading, PendingButton } from '../../components/parts.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { coursesApi } from '../courses/api.ts';
import { TutorCard } from '../tutors/TutorsDirectoryPage.tsx';
import { purchasesApi } from './api.ts';
import { FirstSessionBooking } from './FirstSessionBooking.tsx';
import { clearPendingEnrollment, type PendingEnrollment, readPendingEnrollment } from './storage.ts';
import { EnrollmentSummary } from './TutorSelectionPage.tsx';

/**
 * /time-slot-selection (spec part 2 §2, §4): the first-session step after the tutor choice. No
 * saved enrollment goes to /student, one without a tutor to /tutor-selection. "Book First Session
 * Now" opens the booking dialog for the chosen tutor (the sessions feature's FirstSessionBooking
 * starts the course after the booking); "Skip for Now" starts it (PATCH {status: active}) at once.
 */
export function FirstSessionPage() {
  useDocumentTitle('Schedule Your First Session');
  const [enrollment] = useState(readPendingEnrollment);
  if (!enrollment) return <Navigate to="/student" />;
  if (!enrollment.tutorId) return <Navigate to="/tutor-selection" />;
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6">
      <Link to="/tutor-selection" className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 hover:underline">
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to tutor selection
      </Link>
      <h1 className="mt-4 text-2xl font-bold text-slate-900">Schedule Your First Session</h1>
      <FirstSession enrollment={enrollment} tutorId={enrollment.tutorId} />
    </div>
  );
}

function FirstSession({ enrollment, tutorId }: { enrollment: PendingEnrollment; tutorId: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const tutors = useQuery({
    queryKey: purchasesApi.tutorsKey(enrollment.subjectId),
    queryFn: () => purchasesApi.tutors(enrollment.subjectId),
  });
  const tutor = tutors.data?.find((t) => t.id === tutorId);
  const [booking, setBooking] = useState(false);
  const viewerZone = useCurrentUser().data?.timezone;
  const finish = useMutation({
    mutationFn: () => coursesApi.activateCourse(enrollment.studentId, enrollment.subjectId),
    onSuccess: () => {
      clearPendingEnrollment();
      void queryClient.invalidateQueries({ queryKey: coursesApi.coursesKey(enrollment.studentId) });
      void queryClient.invalidateQueries({ queryKey: coursesApi.enrollmentStatusKey });
      toast({ title: 'Enrollment Complete!', description: 'You can book sessions from your dashboard.', variant: 'success' });
      void navigate({ to: '/student' });
    },
    onError: (e) => toast({ title: 'Error', description: errorMessage(e, 'Failed to complete enrollment'), variant: 'destructive' }),
  });

  return (
    <div className="mt-6 grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle as="h2">Your tutor</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3">
          {tutors.isPending ? (
            <Loading label="Loading your tutor..." />
          ) : tutor ? (
            <TutorCard tutor={tutor} />
          ) : (
            <p className="text-sm text-slate-600">Your tutor’s profile could not be loaded; your choice is saved.</p>
          )}
          <Badge variant="secondary" className="w-fit">
            <Clock aria-hidden="true" />
            60-min sessions
          </Badge>
        </CardContent>
      </Card>
      <EnrollmentSummary enrollment={enrollment} />
      <div className="flex flex-col gap-3 sm:flex-row">
        <PendingButton
          pending={false}
          disabled={finish.isPending}
          label={
            <>
              <CalendarPlus aria-hidden="true" />
              Book First Session Now
            </>
          }
          pendingLabel="Completing..."
          onClick={() => setBooking(true)}
        />
        <PendingButton
          variant="outline"
          pending={finish.isPending}
          disabled={finish.isPending}
          label="Skip for Now"
          pendingLabel="Completing..."
          onClick={() => finish.mutate()}
        />
      </div>
      <FirstSessionBooking enrollment={enrollment} tutorId={tutorId} open={booking} onOpenChange={setBooking} viewerZone={viewerZone} />
    </div>
  );
}
