import { gradeTiers, packageFrequencies, quotePackage } from '@shared/pricing/pricing.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { dollarsAndCents, wholeDollars } from './format.ts';

/**
 * Every grade level × weekly package, priced by the domain pricing policy. Each monthly price cell
 * carries data-testid `price-<gradeTierId>-<frequencyId>`.
 */
export function PriceCalculatorTable() {
  return (
    <>
      <p className="mb-2 text-xs text-slate-600 md:hidden">Scroll sideways to see every package.</p>
      <section
        className="overflow-x-auto rounded-[var(--radius-card)] border border-border bg-white shadow-sm"
        aria-label="Price calculator table"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1)
        tabIndex={0}
      >
        <table className="w-full min-w-[36rem] border-collapse text-left text-sm" aria-describedby="calculator-note">
          <caption className="sr-only">
            Monthly price by grade level and package: monthly price, price per session and monthly savings
          </caption>
          <thead>
            <tr className="border-b border-border bg-slate-50">
              <th scope="col" className="px-4 py-4 font-semibold text-slate-900 sm:px-6">
                Grade level
              </th>
              {packageFrequencies.map((freq) => (
                <th key={freq.id} scope="col" className="px-4 py-4 align-top font-semibold text-slate-900 sm:px-6">
                  <span className="flex flex-wrap items-center gap-2">
                    {freq.name}
                    {freq.recommended ? <Badge>Recommended</Badge> : null}
                  </span>
                  <span className="mt-1 block text-xs font-normal text-slate-600">
                    {freq.sessionsPerMonth} sessions/month
                    {freq.discountPercent > 0 ? ` · ${freq.discountPercent}% off` : ' · no discount'}
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {gradeTiers.map((tier) => (
              <tr key={tier.id} aria-label={tier.name} className="border-b border-border last:border-b-0">
                <th scope="row" className="px-4 py-5 align-top font-semibold text-slate-900 sm:px-6">
                  <span className="whitespace-nowrap">{tier.name}</span>
                  <span className="mt-1 block text-xs font-normal text-slate-600">{wholeDollars(tier.basePrice)} per session</span>
                </th>
                {packageFrequencies.map((freq) => {
                  const quote = quotePackage(tier.basePrice, freq.sessionsPerMonth, freq.multiplier);
                  const label =
                    `${tier.name}, ${freq.name}: ${wholeDollars(quote.monthlyPrice)} per month, ` +
                    `${dollarsAndCents(quote.perSessionPrice)} per session` +
                    (quote.savings > 0 ? `, save ${wholeDollars(quote.savings)}` : ', no discount');
                  return (
                    <td
                      key={freq.id}
                      aria-label={label}
                      className={freq.recommended ? 'bg-brand-50/60 px-4 py-5 align-top sm:px-6' : 'px-4 py-5 align-top sm:px-6'}
                    >
                      <span className="block text-2xl font-bold tracking-tight text-slate-900" data-testid={`price-${tier.id}-${freq.id}`}>
                        {wholeDollars(quote.monthlyPrice)}
                      </span>
                      <span className="block text-xs text-slate-600">per month</span>
                      <span className="mt-2 block text-slate-700" data-testid={`per-session-${tier.id}-${freq.id}`}>
                        {dollarsAndCents(quote.perSessionPrice)} per session
                      </span>
                      {quote.savings > 0 ? (
                        <span className="mt-1 block font-medium text-success" data-testid={`savings-${tier.id}-${freq.id}`}>
                          Save {wholeDollars(quote.savings)}
                        </span>
                      ) : (
                        <span className="mt-1 block text-slate-600" data-testid={`savings-${tier.id}-${freq.id}`}>
                          Standard rate
                        </span>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
