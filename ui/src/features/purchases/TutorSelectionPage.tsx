import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Search, UserSearch } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { PendingButton } from '../../components/parts.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { coursesApi } from '../courses/api.ts';
import { TutorCard, TutorCardSkeletons } from '../tutors/TutorsDirectoryPage.tsx';
import { purchasesApi } from './api.ts';
import { EnrollmentMissing } from './EnrollmentMissing.tsx';
import { dollars, type PendingEnrollment, readPendingEnrollment, savePendingEnrollment } from './storage.ts';
import { matchesSearch } from './tutorSearch.ts';

/** /tutor-selection (spec part 2 §2, §4): choose the tutor of the course just bought. */
export function TutorSelectionPage() {
  useDocumentTitle('Select Your Tutor');
  const [enrollment] = useState(readPendingEnrollment);
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-bold text-slate-900">Select Your Tutor</h1>
      <div className="mt-6">{enrollment ? <TutorSelection enrollment={enrollment} /> : <EnrollmentMissing />}</div>
    </div>
  );
}

/** Subject, package and sessions; with `showPaid`, the "Total paid" the checkout recorded (when known). */
export function EnrollmentSummary({ enrollment, showPaid = false }: { enrollment: PendingEnrollment; showPaid?: boolean }) {
  const { subjectInfo, packageInfo, amountPaid } = enrollment;
  const paid = showPaid && amountPaid !== undefined;
  return (
    <Card>
      <CardContent>
        <dl className={`grid gap-3 text-sm ${paid ? 'sm:grid-cols-4' : 'sm:grid-cols-3'}`} data-testid="enrollment-summary">
          <Fact label="Subject" value={subjectInfo.name} />
          <Fact label="Package" value={packageInfo.name} />
          <Fact label="Sessions" value={`${packageInfo.sessionCount} sessions`} />
          {paid ? <Fact label="Total paid" value={dollars(amountPaid)} /> : null}
        </dl>
      </CardContent>
    </Card>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-slate-600">{label}</dt>
      <dd className="font-semibold text-slate-900">{value}</dd>
    </div>
  );
}

function TutorSelection({ enrollment }: { enrollment: PendingEnrollment }) {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const tutors = useQuery({
    queryKey: purchasesApi.tutorsKey(enrollment.subjectId),
    queryFn: () => purchasesApi.tutors(enrollment.subjectId),
  });
  const select = useMutation({
    mutationFn: (tutorId: string) => coursesApi.chooseTutor(enrollment.studentId, enrollment.subjectId, tutorId),
    onSuccess: (_course, tutorId) => {
      savePendingEnrollment({ ...enrollment, tutorId });
      void queryClient.invalidateQueries({ queryKey: coursesApi.coursesKey(enrollment.studentId) });
      // A course whose tutor had left has one again: its dashboard notice goes.
      void queryClient.invalidateQueries({ queryKey: coursesApi.courseTutorsKey(enrollment.studentId) });
      void queryClient.invalidateQueries({ queryKey: coursesApi.enrollmentStatusKey });
      toast({ title: 'Tutor Selected!', description: 'Great! You can now book sessions from your dashboard.', variant: 'success' });
      // Spec §4 says "full navigation to /student", yet also describes the first-session step that
      // needs the tutorId this step saves (and redirects to /tutor-selection without it): the
      // journey goes through /time-slot-selection, which ends on /student (booking or skip).
      void navigate({ to: '/time-slot-selection' });
    },
    onError: (e) =>
      toast({ title: 'Failed to select tutor', description: errorMessage(e, 'Failed to update enrollment'), variant: 'destructive' }),
  });
  const shown = (tutors.data ?? []).filter((t) => matchesSearch(t, search));
  const searching = search.trim() !== '';

  return (
    <div className="grid gap-6">
      <EnrollmentSummary enrollment={enrollment} showPaid />
      <div className="relative">
        <label htmlFor={`${id}-search`} className="sr-only">
          Search tutors
        </label>
        <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500" aria-hidden="true" />
        <Input
          id={`${id}-search`}
          type="search"
          className="pl-9"
          placeholder="Search tutors by name or specialization..."
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      {tutors.isPending ? (
        <TutorCardSkeletons />
      ) : tutors.isError ? (
        <LoadError title="Failed to load tutors" onRetry={() => void tutors.refetch()} retrying={tutors.isFetching} />
      ) : shown.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-[var(--radius-card)] border border-dashed border-border px-4 py-12 text-center">
          <UserSearch className="size-10 text-slate-400" aria-hidden="true" />
          {searching ? (
            <>
              <h2 className="text-lg font-semibold text-slate-900">No tutors found</h2>
              <p className="text-slate-600">Try adjusting your search terms</p>
            </>
          ) : (
            <>
              <h2 className="text-lg font-semibold text-slate-900">No tutors are currently available for this subject</h2>
              {/* Not a dead end (issue 24): the family may ask for a refund of what they cannot use. */}
              <p className="max-w-md text-slate-600">
                Contact support and we will refund the sessions you have not used, or help you move to another subject.
              </p>
              <Link to="/contact" className="font-medium text-brand-700 underline-offset-4 hover:underline">
                Contact support
              </Link>
            </>
          )}
        </div>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {shown.map((tutor) => (
            <li key={tutor.id} className="flex flex-col gap-2">
              <TutorCard tutor={tutor} />
              <PendingButton
                pending={select.isPending && select.variables === tutor.id}
                disabled={select.isPending || select.isSuccess}
                label="Select This Tutor"
                pendingLabel="Selecting..."
                onClick={() => select.mutate(tutor.id)}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
