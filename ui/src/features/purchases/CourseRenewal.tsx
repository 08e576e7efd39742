import { creditsOfCourse } from '@shared/courses/courseApi.ts';
import { endCourseRefusal, repurchaseRefusal } from '@shared/courses/courseOffers.ts';
import type { PromoValidation } from '@shared/promoCodes/promoCodeApi.ts';
import { REPURCHASE_SESSION_COUNTS } from '@shared/purchases/purchase.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2, RefreshCw } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import type { User } from '../../app/auth/types.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/parts.tsx';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../../components/ui/alert-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { coursesApi, type StudentCourse } from '../courses/api.ts';
import { purchasesApi } from './api.ts';
import { PromoCodeField } from './PromoCodeField.tsx';
import { dollars } from './storage.ts';

/** Spec part 2 §5, §8. */
const SELECT_PACKAGE = 'Please select a package';
const NO_CHECKOUT = 'Failed to create checkout session';
const END_FAILED = 'Failed to end course';
const selectClasses =
  'flex h-10 w-full rounded-md border border-input bg-white px-3 py-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 aria-[invalid=true]:border-destructive';

/**
 * What a course with no sessions remaining offers (spec part 2 §4): Repurchase (a 4, 8 or
 * 12-session package of the course's grade tier, a promo code, then the provider's hosted checkout
 * page) and End Course (after a confirmation). Each only when the server accepts it, by the rule its
 * decider enforces (courseOffers.ts): with sessions still booked, Repurchase but not End Course.
 */
export function CourseRenewal({
  course,
  user,
  subjectTaught = true,
}: {
  course: StudentCourse;
  user: User;
  /** False when no listed tutor teaches the subject: the server refuses a repurchase (no dead ends). */
  subjectTaught?: boolean;
}) {
  const credits = creditsOfCourse(course);
  const canRepurchase = subjectTaught && repurchaseRefusal(credits) === null;
  const canEnd = endCourseRefusal(credits) === null;
  if (!canRepurchase && !canEnd) return null;
  return (
    <div className="mt-3 flex flex-wrap gap-2">
      {canRepurchase ? <RepurchaseDialog course={course} user={user} /> : null}
      {canEnd ? <EndCourseButton course={course} /> : null}
    </div>
  );
}

function RepurchaseDialog({ course, user }: { course: StudentCourse; user: User }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button size="sm" onClick={() => setOpen(true)}>
        <RefreshCw aria-hidden="true" />
        Repurchase
      </Button>
      <DialogContent aria-describedby={`repurchase-${course.id}-description`}>
        <DialogHeader>
          <DialogTitle>Repurchase {course.subject.name}</DialogTitle>
          <DialogDescription id={`repurchase-${course.id}-description`}>
            {course.sessionsBooked > 0 ? 'Every session of this course is used or booked.' : 'All sessions of this course are used.'} Choose
            a package to continue with {course.tutor ? 'your tutor' : 'this course'}; you pay on the secure checkout page.
          </DialogDescription>
        </DialogHeader>
        {open ? <RepurchaseForm course={course} user={user} onCancel={() => setOpen(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function RepurchaseForm({ course, user, onCancel }: { course: StudentCourse; user: User; onCancel: () => void }) {
  const id = useId();
  const packages = useQuery({ queryKey: purchasesApi.packagesKey, queryFn: purchasesApi.packages });
  const [packageId, setPackageId] = useState('');
  const [packageError, setPackageError] = useState<string | null>(null);
  const [promo, setPromo] = useState<PromoValidation | null>(null);
  const [leaving, setLeaving] = useState(false);
  const choices = (packages.data ?? [])
    .filter((p) => p.gradeTier.id === course.gradeTier?.id && REPURCHASE_SESSION_COUNTS.includes(p.sessionCount))
    .sort((a, b) => a.sessionCount - b.sessionCount);
  const chosen = choices.find((p) => p.id === packageId) ?? null;

  const buy = useMutation({
    mutationFn: () => {
      if (!chosen) throw new Error(SELECT_PACKAGE);
      return purchasesApi.repurchase(course.studentId, course.id, {
        packageId: chosen.id,
        email: user.email ?? '',
        promoCodeId: promo?.promoCode.id ?? null,
        originalAmount: promo?.originalPrice ?? chosen.totalPrice,
        discountAmount: promo?.discountAmount ?? 0,
        finalAmount: promo?.finalPrice ?? chosen.totalPrice,
      });
    },
    onSuccess: (answer) => {
      if (!answer.checkoutUrl) {
        toast({ title: 'Repurchase Failed', description: NO_CHECKOUT, variant: 'destructive' });
        return;
      }
      setLeaving(true);
      // A full navigation: the provider's hosted page (or, free, straight back to checkout).
      window.location.assign(answer.checkoutUrl);
    },
    onError: (e) => toast({ title: 'Repurchase Failed', description: errorMessage(e, NO_CHECKOUT), variant: 'destructive' }),
  });

  if (packages.isError) return <LoadError title="Failed to load packages" onRetry={() => void packages.refetch()} />;
  if (!packages.data) return <Loading label="Loading packages..." />;

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (!chosen) return setPackageError(SELECT_PACKAGE);
        buy.mutate();
      }}
    >
      <div className="space-y-2">
        <Label htmlFor={`${id}-package`}>Package</Label>
        <select
          id={`${id}-package`}
          className={selectClasses}
          value={packageId}
          aria-invalid={packageError ? true : undefined}
          aria-describedby={packageError ? `${id}-package-error` : undefined}
          onChange={(e) => {
            setPackageId(e.target.value);
            setPackageError(null);
            // The code's discount depends on the package: apply it again.
            setPromo(null);
          }}
        >
          <option value="">Select a package</option>
          {choices.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name} · {p.sessionCount} sessions · {dollars(p.totalPrice)}
            </option>
          ))}
        </select>
        {packageError ? (
          <p id={`${id}-package-error`} role="alert" className="text-sm font-medium text-destructive-text">
            {packageError}
          </p>
        ) : null}
      </div>
      {chosen ? <PromoCodeField packageId={chosen.id} userId={user.id} applied={promo} onApplied={setPromo} /> : null}
      {chosen ? (
        <dl className="grid gap-1 rounded-md bg-slate-50 p-3 text-sm" data-testid="repurchase-summary">
          <div className="flex justify-between">
            <dt className="text-slate-600">Price</dt>
            <dd className="font-medium text-slate-900">{dollars(chosen.totalPrice)}</dd>
          </div>
          {promo ? (
            <div className="flex justify-between">
              <dt className="text-slate-600">Discount ({promo.promoCode.code})</dt>
              <dd className="font-medium text-slate-900">-{dollars(promo.discountAmount)}</dd>
            </div>
          ) : null}
          <div className="flex justify-between border-t border-border pt-1 font-semibold text-slate-900">
            <dt>Total</dt>
            <dd data-testid="repurchase-total">{dollars(promo?.finalPrice ?? chosen.totalPrice)} CAD</dd>
          </div>
        </dl>
      ) : null}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={buy.isPending || leaving}>
          {buy.isPending || leaving ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          {buy.isPending || leaving ? 'Opening checkout...' : 'Continue to payment'}
        </Button>
      </DialogFooter>
    </form>
  );
}

function EndCourseButton({ course }: { course: StudentCourse }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const end = useMutation({
    mutationFn: () => coursesApi.endCourse(course.id),
    onSuccess: async () => {
      setOpen(false);
      toast({ title: 'Course Ended', description: `${course.subject.name} has ended. You can enrol in a new course.`, variant: 'success' });
      await queryClient.invalidateQueries({ queryKey: coursesApi.coursesKey(course.studentId) });
      await queryClient.invalidateQueries({ queryKey: coursesApi.enrollmentStatusKey });
    },
    onError: (e) => {
      setOpen(false);
      toast({ title: END_FAILED, description: errorMessage(e, END_FAILED), variant: 'destructive' });
    },
  });
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
        End Course
      </Button>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>End {course.subject.name}?</AlertDialogTitle>
          <AlertDialogDescription>
            All sessions of this course are used. Ending it frees its place so you can enrol in another course; it stays in your history.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel asChild>
            <Button variant="outline">Keep Course</Button>
          </AlertDialogCancel>
          <AlertDialogAction asChild>
            <Button
              variant="destructive"
              disabled={end.isPending}
              onClick={(e) => {
                e.preventDefault();
                end.mutate();
              }}
            >
              {end.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
              {end.isPending ? 'Ending...' : 'End Course'}
            </Button>
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
