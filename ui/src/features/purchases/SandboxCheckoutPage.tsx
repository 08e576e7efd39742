import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { CircleAlert, Loader2, Lock, ShieldCheck } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/parts.tsx';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { purchasesApi, type SandboxCheckout } from './api.ts';
import { statusOf } from './returnUrl.ts';
import { dollars } from './storage.ts';

/**
 * The sandbox provider's hosted checkout page (`/sandbox/checkout/{id}`), where a repurchase is
 * paid when Stripe is not configured: the order, a card form taking Stripe's test cards (and the
 * 3-D Secure step of the card that asks for it), Pay and Cancel. Paid, it sends the customer to the
 * session's success URL; Cancel to its cancel URL. Stripe Checkout plays this part with Stripe.
 */
export function SandboxCheckoutPage() {
  useDocumentTitle('Secure checkout');
  const { sessionId } = useParams({ strict: false }) as { sessionId?: string };
  const id = sessionId ?? '';
  const session = useQuery({
    queryKey: purchasesApi.sandboxCheckoutKey(id),
    queryFn: () => purchasesApi.sandboxCheckout(id),
    enabled: id !== '',
    retry: false,
  });

  return (
    <div className="mx-auto w-full max-w-lg px-4 py-8 sm:px-6">
      <p className="flex items-center gap-1.5 text-sm font-medium text-slate-600">
        <ShieldCheck className="size-4" aria-hidden="true" />
        Sandbox payments · test mode
      </p>
      <h1 className="mt-2 text-2xl font-bold text-slate-900">Secure checkout</h1>
      <div className="mt-6">
        {session.isPending ? (
          <Loading label="Loading checkout..." />
        ) : session.isError ? (
          statusOf(session.error) === 401 ? (
            <Alert>
              <Lock aria-hidden="true" />
              <AlertTitle>Sign in to pay</AlertTitle>
              <AlertDescription>
                <p>Sign in with the account that started this purchase.</p>
                <Button asChild size="sm" className="mt-3">
                  <Link to="/login">Sign in</Link>
                </Button>
              </AlertDescription>
            </Alert>
          ) : statusOf(session.error) === 404 || statusOf(session.error) === 403 ? (
            <Alert variant="destructive">
              <CircleAlert aria-hidden="true" />
              <AlertTitle>Checkout session not found</AlertTitle>
              <AlertDescription>
                <p>This checkout link is not valid for your account.</p>
                <Button asChild size="sm" variant="outline" className="mt-3">
                  <Link to="/student">Back to dashboard</Link>
                </Button>
              </AlertDescription>
            </Alert>
          ) : (
            <LoadError title="Failed to load checkout" onRetry={() => void session.refetch()} retrying={session.isFetching} />
          )
        ) : (
          <HostedCheckout checkout={session.data} />
        )}
      </div>
    </div>
  );
}

function HostedCheckout({ checkout }: { checkout: SandboxCheckout }) {
  const id = useId();
  const [cardNumber, setCardNumber] = useState('');
  const [declined, setDeclined] = useState<string | null>(null);
  const [authenticating, setAuthenticating] = useState(checkout.requiresAction);
  const [leaving, setLeaving] = useState(false);

  const go = (url: string) => {
    setLeaving(true);
    window.location.assign(url);
  };
  const onResult = (result: { status: string; message?: string | undefined; redirectTo?: string | undefined }) => {
    if (result.status === 'succeeded') return go(result.redirectTo ?? checkout.successUrl);
    if (result.status === 'requires_action') {
      setDeclined(null);
      return setAuthenticating(true);
    }
    setAuthenticating(false);
    setDeclined(result.message ?? 'Your card was declined.');
  };
  const onError = (e: Error) => setDeclined(errorMessage(e, 'The payment could not be completed.'));
  const pay = useMutation({
    mutationFn: () => purchasesApi.sandboxCheckoutPay(checkout.id, cardNumber.replace(/\s+/g, '')),
    onSuccess: onResult,
    onError,
  });
  const authenticate = useMutation({
    mutationFn: (approve: boolean) => purchasesApi.sandboxCheckoutAuthenticate(checkout.id, approve),
    onSuccess: onResult,
    onError,
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Your order</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid gap-2 text-sm" data-testid="sandbox-order">
          <div className="flex justify-between gap-4">
            <dt className="text-slate-600">Item</dt>
            <dd className="text-right font-medium text-slate-900">{checkout.description}</dd>
          </div>
          <div className="flex justify-between gap-4 border-t border-border pt-2 text-base font-semibold text-slate-900">
            <dt>Total</dt>
            <dd data-testid="sandbox-total">
              {dollars(checkout.amount)} {checkout.currency}
            </dd>
          </div>
        </dl>
        {checkout.status !== 'open' ? (
          <ClosedCheckout checkout={checkout} onGo={go} />
        ) : (
          <form
            className="grid gap-3"
            onSubmit={(e) => {
              e.preventDefault();
              setDeclined(null);
              pay.mutate();
            }}
          >
            <Label htmlFor={`${id}-card`}>Card number</Label>
            <Input
              id={`${id}-card`}
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder="4242 4242 4242 4242"
              value={cardNumber}
              aria-invalid={declined ? true : undefined}
              aria-describedby={`${id}-hint${declined ? ` ${id}-declined` : ''}`}
              onChange={(e) => setCardNumber(e.target.value)}
            />
            <div id={`${id}-hint`} className="rounded-md bg-slate-50 p-3 text-xs text-slate-600">
              <p className="font-medium text-slate-700">Test cards (sandbox payments)</p>
              <ul className="mt-1 grid gap-0.5">
                <li>4242 4242 4242 4242 succeeds</li>
                <li>4000 0000 0000 0002 is declined</li>
                <li>4000 0025 0000 3155 needs authentication</li>
              </ul>
            </div>
            {declined ? (
              <p id={`${id}-declined`} role="alert" className="flex items-center gap-1.5 text-sm font-medium text-destructive-text">
                <CircleAlert className="size-4 shrink-0" aria-hidden="true" />
                {declined}
              </p>
            ) : null}
            {authenticating ? (
              <AuthenticationPrompt busy={authenticate.isPending || leaving} onAnswer={(approve) => authenticate.mutate(approve)} />
            ) : null}
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={pay.isPending || leaving || cardNumber.trim() === ''}>
                {pay.isPending || leaving ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Lock aria-hidden="true" />}
                {pay.isPending ? 'Processing...' : `Pay ${dollars(checkout.amount)}`}
              </Button>
              <Button type="button" variant="outline" disabled={pay.isPending || leaving} onClick={() => go(checkout.cancelUrl)}>
                Cancel
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}

/** A session that takes no more payments: paid already, or expired. */
function ClosedCheckout({ checkout, onGo }: { checkout: SandboxCheckout; onGo: (url: string) => void }) {
  if (checkout.status === 'complete') {
    return (
      <Alert>
        <ShieldCheck aria-hidden="true" />
        <AlertTitle>Already paid</AlertTitle>
        <AlertDescription>
          <Button size="sm" className="mt-2" onClick={() => onGo(checkout.successUrl)}>
            Continue
          </Button>
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <Alert variant="destructive">
      <CircleAlert aria-hidden="true" />
      <AlertTitle>This checkout has expired</AlertTitle>
      <AlertDescription>
        <p>Nothing was charged. Start the repurchase again from your dashboard.</p>
        <Button size="sm" variant="outline" className="mt-2" onClick={() => onGo(checkout.cancelUrl)}>
          Return
        </Button>
      </AlertDescription>
    </Alert>
  );
}

/** The 3-D Secure challenge of the sandbox (the card 4000 0025 0000 3155). */
function AuthenticationPrompt({ busy, onAnswer }: { busy: boolean; onAnswer: (approve: boolean) => void }) {
  return (
    <Alert>
      <CircleAlert aria-hidden="true" />
      <AlertTitle>Authentication required</AlertTitle>
      <AlertDescription>
        <p>Your bank asks you to confirm this payment. In the sandbox, approve or fail the check.</p>
        <div className="mt-3 flex flex-wrap gap-2">
          <Button type="button" size="sm" disabled={busy} onClick={() => onAnswer(true)}>
            {busy ? 'Checking...' : 'Approve'}
          </Button>
          <Button type="button" size="sm" variant="outline" disabled={busy} onClick={() => onAnswer(false)}>
            Fail authentication
          </Button>
        </div>
      </AlertDescription>
    </Alert>
  );
}
