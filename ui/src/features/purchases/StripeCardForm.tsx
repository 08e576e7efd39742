import type { Stripe, StripeElements } from '@stripe/stripe-js';
// `pure`: Stripe.js is fetched only when a Stripe card form mounts, never on other pages (the sandbox's CSP has no Stripe).
import { loadStripe } from '@stripe/stripe-js/pure';
import { Loader2, Lock } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';

/** One Stripe.js per publishable key for the page's life (loadStripe injects the script once). */
const stripes = new Map<string, Promise<Stripe | null>>();
const stripeFor = (publishableKey: string) => {
  let stripe = stripes.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    stripes.set(publishableKey, stripe);
  }
  return stripe;
};

export type StripeCardOutcome = { status: 'succeeded' } | { status: 'failed'; message: string };

/**
 * Stripe's Payment Element for the intent the server created (spec part 2 §2: the card form of
 * the card payment provider). Stripe confirms the card, running 3-D Secure in its own frame when
 * the bank asks; the purchase is then confirmed on the server (`onSettled`), which asks Stripe
 * again rather than trusting the browser.
 */
export function StripeCardForm({
  publishableKey,
  clientSecret,
  payLabel,
  onSettled,
}: {
  publishableKey: string;
  clientSecret: string;
  payLabel: string;
  onSettled: (outcome: StripeCardOutcome) => Promise<void> | void;
}) {
  const mountRef = useRef<HTMLDivElement | null>(null);
  const [ready, setReady] = useState<{ stripe: Stripe; elements: StripeElements } | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [paying, setPaying] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let unmount: (() => void) | null = null;
    void stripeFor(publishableKey).then(
      (stripe) => {
        if (cancelled || !mountRef.current) return;
        if (!stripe) return setLoadFailed(true);
        const elements = stripe.elements({ clientSecret });
        const element = elements.create('payment');
        element.mount(mountRef.current);
        unmount = () => element.destroy();
        setReady({ stripe, elements });
      },
      () => !cancelled && setLoadFailed(true),
    );
    return () => {
      cancelled = true;
      unmount?.();
    };
  }, [publishableKey, clientSecret]);

  const pay = async () => {
    if (!ready) return;
    setPaying(true);
    try {
      const { error, paymentIntent } = await ready.stripe.confirmPayment({
        elements: ready.elements,
        redirect: 'if_required',
        confirmParams: { return_url: window.location.href },
      });
      if (error) await onSettled({ status: 'failed', message: error.message ?? 'Your card was declined.' });
      else if (paymentIntent && (paymentIntent.status === 'succeeded' || paymentIntent.status === 'processing'))
        await onSettled({ status: 'succeeded' });
      else await onSettled({ status: 'failed', message: 'The payment was not completed.' });
    } finally {
      setPaying(false);
    }
  };

  if (loadFailed) {
    return (
      <p role="alert" className="text-sm text-destructive">
        The card form could not be loaded. Check your connection, then reload the page.
      </p>
    );
  }
  return (
    <form
      className="grid gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        void pay();
      }}
    >
      <div ref={mountRef} aria-busy={ready ? undefined : true} className="min-h-24" />
      {ready ? null : (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          Preparing checkout...
        </p>
      )}
      <Button type="submit" disabled={!ready || paying}>
        {paying ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Lock aria-hidden="true" />}
        {paying ? 'Processing...' : payLabel}
      </Button>
    </form>
  );
}
