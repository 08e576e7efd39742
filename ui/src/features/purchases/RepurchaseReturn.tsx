import { Link } from '@tanstack/react-router';
import { CircleAlert, CircleCheck, Loader2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { purchasesApi } from './api.ts';
import { RETURN_DELAY_MS, statusOf, VERIFY_INTERVAL_MS, VERIFY_RETRIES } from './returnUrl.ts';

type State = 'verifying' | 'processed' | 'processing' | 'expired';

/**
 * Checkout's repurchase return (spec part 2 §2, §4, §8): a paid session is verified (the first
 * check, then up to 10 more at 1 s) until the course has its credits, then the dashboard after 2 s;
 * a 401 is "Session Expired" and a reload after 2 s; other errors show "Repurchase Processing..."
 * and are retried; after the last retry "Processing...". A cancelled return says nothing was paid.
 */
export function RepurchaseReturn({
  sessionId,
  cancelled,
  purchaseId,
}: {
  sessionId: string | null;
  cancelled: boolean;
  purchaseId: string | null;
}) {
  if (cancelled || !sessionId) return <Cancelled purchaseId={purchaseId} />;
  return <Verification sessionId={sessionId} />;
}

/** The hosted checkout's cancel URL: the repurchase is given up at once (its session can no longer be paid). */
function Cancelled({ purchaseId }: { purchaseId: string | null }) {
  const [state, setState] = useState<'cancelling' | 'done'>(purchaseId ? 'cancelling' : 'done');
  useEffect(() => {
    if (!purchaseId) return;
    let stopped = false;
    purchasesApi
      .cancelRepurchase(purchaseId)
      .catch(() => null)
      .finally(() => {
        if (!stopped) setState('done');
      });
    return () => {
      stopped = true;
    };
  }, [purchaseId]);
  if (state === 'cancelling') {
    return (
      <p role="status" className="flex items-center gap-2 text-sm font-medium text-slate-700">
        <Loader2 className="size-4 animate-spin" aria-hidden="true" />
        Cancelling your repurchase...
      </p>
    );
  }
  return (
    <Alert data-testid="repurchase-cancelled">
      <CircleAlert aria-hidden="true" />
      <AlertTitle>Payment cancelled</AlertTitle>
      <AlertDescription>
        <p>Your repurchase was cancelled and nothing was charged. Your course is unchanged; you can repurchase from your dashboard.</p>
        <Button asChild size="sm" className="mt-3">
          <Link to="/student">Back to dashboard</Link>
        </Button>
      </AlertDescription>
    </Alert>
  );
}

/** One verification: processed, a lost session (401), or not yet (any other error is said and retried). */
async function check(sessionId: string): Promise<'processed' | 'expired' | 'pending'> {
  try {
    return (await purchasesApi.verifyRepurchase(sessionId)).processed ? 'processed' : 'pending';
  } catch (error) {
    if (statusOf(error) === 401) return 'expired';
    toast({ title: 'Repurchase Processing...', description: 'Your payment is being confirmed.' });
    return 'pending';
  }
}

function settle(outcome: 'processed' | 'expired', setState: (state: State) => void) {
  setState(outcome);
  if (outcome === 'processed') {
    toast({ title: 'Repurchase Successful!', description: 'Your new sessions have been added to your course.', variant: 'success' });
    // A full navigation: the dashboard reads the course's new remaining sessions.
    window.setTimeout(() => window.location.assign('/student'), RETURN_DELAY_MS);
    return;
  }
  toast({ title: 'Session Expired', description: 'Please sign in again.', variant: 'destructive' });
  window.setTimeout(() => window.location.reload(), RETURN_DELAY_MS);
}

function Verification({ sessionId }: { sessionId: string }) {
  const [state, setState] = useState<State>('verifying');

  useEffect(() => {
    let stopped = false;
    const run = async () => {
      for (let attempt = 0; attempt <= VERIFY_RETRIES; attempt++) {
        if (attempt > 0) await new Promise((resolve) => window.setTimeout(resolve, VERIFY_INTERVAL_MS));
        if (stopped) return;
        const outcome = await check(sessionId);
        if (stopped) return;
        if (outcome !== 'pending') return settle(outcome, setState);
      }
      setState('processing');
    };
    void run();
    return () => {
      stopped = true;
    };
  }, [sessionId]);

  if (state === 'processed') {
    return (
      <p role="status" data-testid="repurchase-processed" className="flex items-center gap-2 text-sm font-medium text-success">
        <CircleCheck className="size-4" aria-hidden="true" />
        Payment received: your sessions were added. Taking you to your dashboard...
      </p>
    );
  }
  if (state === 'expired') {
    return (
      <p role="status" className="flex items-center gap-2 text-sm font-medium text-destructive-text">
        <CircleAlert className="size-4" aria-hidden="true" />
        Your session expired. Reloading...
      </p>
    );
  }
  if (state === 'processing') {
    return (
      <Alert data-testid="repurchase-processing">
        <Loader2 className="animate-spin" aria-hidden="true" />
        <AlertTitle>Processing...</AlertTitle>
        <AlertDescription>
          <p>Your payment is still being processed. Your new sessions will show on your dashboard as soon as it completes.</p>
          <Button asChild size="sm" className="mt-3">
            <Link to="/student">Back to dashboard</Link>
          </Button>
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <p role="status" className="flex items-center gap-2 text-sm font-medium text-slate-700">
      <Loader2 className="size-4 animate-spin" aria-hidden="true" />
      Confirming your repurchase...
    </p>
  );
}
