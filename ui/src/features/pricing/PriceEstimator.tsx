import { type GradeTierId, gradeTiers, type PackageFrequencyId, packageFrequencies, quotePackage } from '@shared/pricing/pricing.ts';
import { useId, useState } from 'react';
import { AppLink } from '../../app/layout/AppLink.tsx';
import { buttonVariants } from '../../components/ui/button.tsx';
import { cn } from '../../lib/utils.ts';
import { dollarsAndCents, wholeDollars } from './format.ts';

const pill =
  'flex cursor-pointer items-center justify-center rounded-md border border-input bg-white px-3 py-2.5 text-center text-sm font-medium text-slate-700 transition-colors ' +
  'hover:border-brand-400 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-700 has-[:checked]:text-white ' +
  'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring';

/** Pick a grade level and a weekly package; shows the policy's monthly quote. */
export function PriceEstimator() {
  const [tierId, setTierId] = useState<GradeTierId>('grade_11_12');
  const [freqId, setFreqId] = useState<PackageFrequencyId>('weekly_2');
  const name = useId();

  const tier = gradeTiers.find((t) => t.id === tierId) ?? gradeTiers[0];
  const freq = packageFrequencies.find((f) => f.id === freqId) ?? packageFrequencies[0];
  const quote = quotePackage(tier.basePrice, freq.sessionsPerMonth, freq.multiplier);

  return (
    <div className="grid gap-8 rounded-2xl border border-border bg-white p-6 shadow-sm sm:p-8 lg:grid-cols-[1.2fr_1fr]">
      <div className="space-y-6">
        <fieldset>
          <legend className="text-sm font-semibold text-slate-900">Grade level</legend>
          <div className="mt-3 grid grid-cols-1 gap-2 sm:grid-cols-3">
            {gradeTiers.map((t) => (
              <label key={t.id} className={pill}>
                <input
                  type="radio"
                  name={`${name}-tier`}
                  value={t.id}
                  checked={tierId === t.id}
                  onChange={() => setTierId(t.id)}
                  className="sr-only"
                />
                {t.name}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend className="text-sm font-semibold text-slate-900">Sessions per week</legend>
          <div className="mt-3 grid grid-cols-1 gap-2 sm:grid-cols-3">
            {packageFrequencies.map((f) => (
              <label key={f.id} className={pill}>
                <input
                  type="radio"
                  name={`${name}-freq`}
                  value={f.id}
                  checked={freqId === f.id}
                  onChange={() => setFreqId(f.id)}
                  className="sr-only"
                />
                {f.name}
                {f.recommended ? ' (recommended)' : ''}
              </label>
            ))}
          </div>
        </fieldset>
      </div>

      <div className="rounded-xl bg-brand-950 p-6 text-white" aria-live="polite">
        <p className="text-sm text-brand-200">
          {tier.name} · {freq.name} · {freq.sessionsPerMonth} sessions a month
        </p>
        <p className="mt-2">
          <span className="text-4xl font-bold tracking-tight" data-testid="estimate-monthly">
            {wholeDollars(quote.monthlyPrice)}
          </span>{' '}
          <span className="text-brand-200">per month</span>
        </p>
        <dl className="mt-4 grid grid-cols-2 gap-4 text-sm">
          <div>
            <dt className="text-brand-200">Per session</dt>
            <dd className="mt-0.5 text-lg font-semibold" data-testid="estimate-per-session">
              {dollarsAndCents(quote.perSessionPrice)}
            </dd>
          </div>
          <div>
            <dt className="text-brand-200">You save monthly</dt>
            <dd className={cn('mt-0.5 text-lg font-semibold', quote.savings > 0 && 'text-emerald-300')} data-testid="estimate-savings">
              {quote.savings > 0 ? wholeDollars(quote.savings) : 'Standard rate'}
            </dd>
          </div>
        </dl>
        <AppLink to="/login" className={buttonVariants({ variant: 'inverse', className: 'mt-6 w-full' })}>
          Get started with this package
        </AppLink>
      </div>
    </div>
  );
}
