import type { PromoValidation } from '@shared/promoCodes/promoCodeApi.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowLeft, CircleAlert, CreditCard, Loader2, Lock } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import type { User } from '../../app/auth/types.ts';
import { useCurrentUser } from '../../app/auth/useCurrentUser.ts';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { Loading } from '../../components/parts.tsx';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { purchasesApi, type SandboxCardAnswer } from './api.ts';
import { EnrollmentMissing } from './EnrollmentMissing.tsx';
import { PromoCodeField } from './PromoCodeField.tsx';
import { RepurchaseReturn } from './RepurchaseReturn.tsx';
import { checkoutEntryOf, repurchaseReturnOf } from './returnUrl.ts';
import { StripeCardForm } from './StripeCardForm.tsx';
import {
  clearPaymentMetadata,
  dollars,
  type PaymentMetadata,
  type PendingEnrollment,
  readPendingEnrollment,
  savePaymentMetadata,
  savePendingEnrollment,
} from './storage.ts';

export const REDIRECT_DELAY_MS = 2000;
const CONFIRM_FAILED = 'Payment completed but there was an issue creating your enrollment. Please contact support.';

/**
 * /checkout (spec part 2 §2, §4): the saved pending enrollment, the Order Summary, the promo code
 * and the card form; or, with `?repurchase=true`, the return from a repurchase's hosted checkout. The sandbox card form stands in for the provider's; the server prices the
 * order again and refuses different amounts.
 */
export function CheckoutPage() {
  useDocumentTitle('Checkout');
  const { data: user, isPending } = useCurrentUser();
  const [linked] = useState(() => checkoutEntryOf(window.location.search));
  const [saved] = useState(readPendingEnrollment);
  const [repurchase] = useState(() => repurchaseReturnOf(window.location.search));
  const fromLink = useEnrollmentFromLink(linked);
  // A link names what to buy; otherwise the enrollment saved by the Add Course dialog.
  const enrollment = linked ? fromLink.data : saved;
  const preparing = isPending || (linked !== null && fromLink.isPending);

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6">
      <Link to="/student" className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 hover:underline">
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to dashboard
      </Link>
      <h1 className="mt-4 text-2xl font-bold text-slate-900">Checkout</h1>
      <div className="mt-6">
        {repurchase ? (
          <RepurchaseReturn sessionId={repurchase.sessionId} cancelled={repurchase.cancelled} purchaseId={repurchase.purchaseId} />
        ) : preparing ? (
          <Loading label="Preparing checkout..." />
        ) : !enrollment ? (
          <EnrollmentMissing />
        ) : (
          <Checkout enrollment={enrollment} user={user ?? null} />
        )}
      </div>
    </div>
  );
}

/**
 * The enrollment a checkout link names: the package and subject read from the catalogue (the
 * server prices the order again anyway), saved like the Add Course dialog's so that tutor
 * selection follows the payment. Null when the link names an unknown package or subject.
 */
function useEnrollmentFromLink(linked: { packageId: string; subjectId: string; studentId: string } | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ['checkout-link', linked],
    enabled: linked !== null,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async (): Promise<PendingEnrollment | null> => {
      if (!linked) return null;
      const [packages, subjects] = await Promise.all([
        queryClient.fetchQuery({ queryKey: purchasesApi.packagesKey, queryFn: purchasesApi.packages }),
        queryClient.fetchQuery({ queryKey: purchasesApi.subjectsKey, queryFn: purchasesApi.subjects }),
      ]);
      const pkg = packages.find((p) => p.id === linked.packageId);
      const subject = subjects.find((x) => x.id === linked.subjectId);
      if (!pkg || !subject) return null;
      const enrollment: PendingEnrollment = {
        ...linked,
        subjectInfo: { name: subject.name },
        packageInfo: { name: pkg.name, sessionCount: pkg.sessionCount, totalPrice: pkg.totalPrice },
      };
      savePendingEnrollment(enrollment);
      return enrollment;
    },
  });
}

function Checkout({ enrollment, user }: { enrollment: PendingEnrollment; user: User | null }) {
  const [promo, setPromo] = useState<PromoValidation | null>(null);
  // Once the payment intent exists its amount is fixed: the promo can no longer change.
  const [locked, setLocked] = useState(false);
  const price = enrollment.packageInfo.totalPrice;
  const total = promo ? promo.finalPrice : price;
  const base = { packageId: enrollment.packageId, subjectId: enrollment.subjectId, studentId: enrollment.studentId };
  const taught = useQuery({ queryKey: purchasesApi.subjectsWithTutorsKey, queryFn: purchasesApi.subjectsWithTutors });

  // Spec §3: the payment metadata in session storage follows what the page shows.
  useEffect(() => {
    const metadata: PaymentMetadata = promo
      ? {
          ...base,
          amount: promo.finalPrice,
          promoCodeId: promo.promoCode.id,
          originalAmount: promo.originalPrice,
          discountAmount: promo.discountAmount,
          finalAmount: promo.finalPrice,
        }
      : { ...base, amount: price };
    savePaymentMetadata(metadata);
  });

  // A saved enrollment or a link may name a subject nobody teaches (any more): say so before any payment.
  if (taught.data && !taught.data.some((s) => s.id === enrollment.subjectId)) {
    return (
      <Alert variant="destructive" data-testid="checkout-no-tutor">
        <CircleAlert aria-hidden="true" />
        <AlertTitle>No tutor teaches {enrollment.subjectInfo.name} yet</AlertTitle>
        <AlertDescription>
          <p>This subject cannot be bought until a tutor teaches it. Please choose another subject from your dashboard.</p>
          <Button asChild size="sm" variant="outline" className="mt-3">
            <Link to="/student">Back to dashboard</Link>
          </Button>
        </AlertDescription>
      </Alert>
    );
  }

  return (
    <div className="grid gap-6 md:grid-cols-[1fr_1fr]">
      <Card>
        <CardHeader>
          <CardTitle as="h2">Order Summary</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-2 text-sm" data-testid="order-summary">
            <Row label="Subject" value={enrollment.subjectInfo.name} />
            <Row label="Package" value={enrollment.packageInfo.name} />
            <Row label="Sessions" value={String(enrollment.packageInfo.sessionCount)} />
            <Row label="Price" value={dollars(price)} />
            {promo ? <Row label={`Discount (${promo.promoCode.code})`} value={`-${dollars(promo.discountAmount)}`} /> : null}
            <div className="mt-2 flex justify-between border-t border-border pt-3 text-base font-semibold text-slate-900">
              <dt>Total</dt>
              <dd data-testid="order-total">{dollars(total)}</dd>
            </div>
          </dl>
          <PromoCodeField
            packageId={enrollment.packageId}
            userId={user?.id ?? null}
            applied={promo}
            onApplied={setPromo}
            locked={locked}
            showApplied
            className="mt-6"
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle as="h2">Payment</CardTitle>
        </CardHeader>
        <CardContent>
          {user?.student || user?.role === 'parent' ? (
            <PaymentForm enrollment={enrollment} user={user} promo={promo} total={total} onStarted={() => setLocked(true)} />
          ) : (
            <Alert>
              <Lock aria-hidden="true" />
              <AlertTitle>Sign in to pay</AlertTitle>
              <AlertDescription>
                <p>Sign in with the student (or parent) account the course is for.</p>
                <Button asChild size="sm" className="mt-3">
                  <Link to="/login">Sign in</Link>
                </Button>
              </AlertDescription>
            </Alert>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-slate-600">{label}</dt>
      <dd className="text-right font-medium text-slate-900">{value}</dd>
    </div>
  );
}

interface Intent {
  paymentIntentId: string;
  clientSecret: string;
  amount: number;
}

/** Starts the payment intent, then the card form (Stripe's, or the sandbox's); the payment is confirmed on the server. */
function PaymentForm({
  enrollment,
  user,
  promo,
  total,
  onStarted,
}: {
  enrollment: PendingEnrollment;
  user: User;
  promo: PromoValidation | null;
  total: number;
  onStarted: () => void;
}) {
  const id = useId();
  const [intent, setIntent] = useState<Intent | null>(null);
  const [cardNumber, setCardNumber] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const provider = useQuery({
    queryKey: purchasesApi.paymentsConfigKey,
    queryFn: purchasesApi.paymentsConfig,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const base = { packageId: enrollment.packageId, subjectId: enrollment.subjectId, studentId: enrollment.studentId };

  const finish = (redirectTo: string, amountPaid: number, purchaseId?: string) => {
    setDone(true);
    savePendingEnrollment({ ...enrollment, amountPaid, ...(purchaseId ? { purchaseId } : {}) });
    clearPaymentMetadata();
    // Spec §4: redirect after 2 seconds; a full navigation reloads the user and the courses.
    window.setTimeout(() => window.location.assign(redirectTo), REDIRECT_DELAY_MS);
  };

  const start = useMutation({
    mutationFn: () =>
      purchasesApi.createPaymentIntent({
        ...base,
        amount: total,
        email: user.email ?? null,
        ...(promo
          ? {
              promoCodeId: promo.promoCode.id,
              originalAmount: promo.originalPrice,
              discountAmount: promo.discountAmount,
              finalAmount: promo.finalPrice,
            }
          : {}),
      }),
    onSuccess: (answer) => {
      onStarted();
      if (answer.clientSecret === 'free_purchase') {
        toast({
          title: 'Enrollment Successful!',
          description: 'Your free enrollment is confirmed. Now choose your tutor.',
          variant: 'success',
        });
        finish('/tutor-selection', answer.amount, answer.purchaseId);
        return;
      }
      if (!answer.paymentIntentId) {
        toast({ title: 'Payment failed', description: 'Failed to initialize payment', variant: 'destructive' });
        return;
      }
      savePendingEnrollment({ ...enrollment, purchaseId: answer.purchaseId });
      setIntent({ paymentIntentId: answer.paymentIntentId, clientSecret: answer.clientSecret, amount: answer.amount });
    },
    onError: (e) =>
      toast({ title: 'Payment failed', description: errorMessage(e, 'Failed to initialize payment'), variant: 'destructive' }),
  });

  /** The card's answer, then the purchase confirmed on the server when it succeeded. */
  const confirmCard = async (current: Intent, answer: Promise<SandboxCardAnswer>) => {
    const card = await answer;
    if (card.status !== 'succeeded') return { card, confirmed: null };
    try {
      const confirmed = await purchasesApi.confirmPayment({ ...base, paymentIntentId: current.paymentIntentId, amount: current.amount });
      return { card, confirmed };
    } catch (e) {
      throw new Error(errorMessage(e, CONFIRM_FAILED));
    }
  };

  const pay = useMutation({
    mutationFn: (current: Intent) =>
      confirmCard(current, purchasesApi.sandboxConfirm(current.paymentIntentId, cardNumber.replace(/\s+/g, ''))),
    onSuccess: ({ card, confirmed }, current) => {
      if (card.status === 'requires_payment_method') {
        toast({ title: 'Payment failed', description: card.message ?? 'Your card was declined.', variant: 'destructive' });
        return;
      }
      if (card.status === 'requires_action' || !confirmed) {
        setNotice(card.message ?? 'Your bank asks you to confirm this payment. In the sandbox, approve or fail the check below.');
        return;
      }
      toast({ title: 'Payment Successful!', description: 'Your enrollment is confirmed. Now choose your tutor.', variant: 'success' });
      finish(confirmed.redirectTo || '/tutor-selection', current.amount, confirmed.enrollmentData.purchaseId);
    },
    onError: (e) => toast({ title: 'Payment failed', description: errorMessage(e, CONFIRM_FAILED), variant: 'destructive' }),
  });

  const authenticate = useMutation({
    mutationFn: ({ current, approve }: { current: Intent; approve: boolean }) =>
      confirmCard(current, purchasesApi.sandboxAuthenticate(current.paymentIntentId, approve)),
    onSuccess: ({ card, confirmed }, { current }) => {
      setNotice(null);
      if (card.status !== 'succeeded' || !confirmed) {
        toast({ title: 'Payment failed', description: card.message ?? 'The payment could not be authenticated.', variant: 'destructive' });
        return;
      }
      toast({ title: 'Payment Successful!', description: 'Your enrollment is confirmed. Now choose your tutor.', variant: 'success' });
      finish(confirmed.redirectTo || '/tutor-selection', current.amount, confirmed.enrollmentData.purchaseId);
    },
    onError: (e) => toast({ title: 'Payment failed', description: errorMessage(e, CONFIRM_FAILED), variant: 'destructive' }),
  });

  if (done) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm font-medium text-success">
        <Loader2 className="size-4 animate-spin" aria-hidden="true" />
        Payment complete. Taking you to tutor selection...
      </p>
    );
  }

  if (!intent) {
    return (
      <div className="grid gap-3">
        <p className="text-sm text-slate-700">
          You pay <strong>{dollars(total)}</strong> (CAD) for {enrollment.packageInfo.sessionCount} sessions of{' '}
          {enrollment.subjectInfo.name}.
        </p>
        <Button onClick={() => start.mutate()} disabled={start.isPending}>
          {start.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <CreditCard aria-hidden="true" />}
          {start.isPending ? 'Preparing payment...' : total === 0 ? 'Complete free enrollment' : `Pay ${dollars(total)}`}
        </Button>
      </div>
    );
  }

  if (provider.data?.provider === 'stripe' && provider.data.publishableKey) {
    return (
      <StripeCardForm
        publishableKey={provider.data.publishableKey}
        clientSecret={intent.clientSecret}
        payLabel={`Pay ${dollars(intent.amount)}`}
        onSettled={async (outcome) => {
          if (outcome.status === 'failed') {
            toast({ title: 'Payment failed', description: outcome.message, variant: 'destructive' });
            return;
          }
          try {
            const confirmed = await purchasesApi.confirmPayment({
              ...base,
              paymentIntentId: intent.paymentIntentId,
              amount: intent.amount,
            });
            toast({
              title: 'Payment Successful!',
              description: 'Your enrollment is confirmed. Now choose your tutor.',
              variant: 'success',
            });
            finish(confirmed.redirectTo || '/tutor-selection', intent.amount, confirmed.enrollmentData.purchaseId);
          } catch (e) {
            toast({ title: 'Payment failed', description: errorMessage(e, CONFIRM_FAILED), variant: 'destructive' });
          }
        }}
      />
    );
  }

  return (
    <form
      className="grid gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        setNotice(null);
        pay.mutate(intent);
      }}
    >
      <Label htmlFor={`${id}-card`}>Card number</Label>
      <Input
        id={`${id}-card`}
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="4242 4242 4242 4242"
        value={cardNumber}
        aria-describedby={`${id}-card-hint`}
        onChange={(e) => setCardNumber(e.target.value)}
      />
      <div id={`${id}-card-hint`} className="rounded-md bg-slate-50 p-3 text-xs text-slate-600">
        <p className="font-medium text-slate-700">Test cards (sandbox payments)</p>
        <ul className="mt-1 grid gap-0.5">
          <li>4242 4242 4242 4242 succeeds</li>
          <li>4000 0000 0000 0002 is declined</li>
          <li>4000 0025 0000 3155 needs authentication</li>
        </ul>
      </div>
      {notice ? (
        <Alert>
          <CircleAlert aria-hidden="true" />
          <AlertTitle>Authentication required</AlertTitle>
          <AlertDescription>
            <p>{notice}</p>
            <div className="mt-3 flex flex-wrap gap-2">
              <Button
                type="button"
                size="sm"
                disabled={authenticate.isPending}
                onClick={() => authenticate.mutate({ current: intent, approve: true })}
              >
                {authenticate.isPending ? 'Checking...' : 'Approve'}
              </Button>
              <Button
                type="button"
                size="sm"
                variant="outline"
                disabled={authenticate.isPending}
                onClick={() => authenticate.mutate({ current: intent, approve: false })}
              >
                Fail authentication
              </Button>
            </div>
          </AlertDescription>
        </Alert>
      ) : null}
      <Button type="submit" disabled={pay.isPending || cardNumber.trim() === ''}>
        {pay.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Lock aria-hidden="true" />}
        {pay.isPending ? 'Processing...' : `Pay ${dollars(intent.amount)}`}
      </Button>
    </form>
  );
}
