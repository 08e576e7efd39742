import { gradeTiers, packageFrequencies, quotePackage } from '@shared/pricing/pricing.ts';
import { Link } from '@tanstack/react-router';
import { CalendarRange, Check, Infinity as InfinityIcon, ReceiptText, RefreshCw, ShieldCheck } from 'lucide-react';
import { AppLink } from '../../app/layout/AppLink.tsx';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { CallToAction } from '../../components/marketing/CallToAction.tsx';
import { PageHeader, Section } from '../../components/marketing/PageHeader.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { buttonVariants } from '../../components/ui/button.tsx';
import { Card, CardContent, CardTitle } from '../../components/ui/card.tsx';
import { cn } from '../../lib/utils.ts';
import { wholeDollars } from './format.ts';
import { PriceCalculatorTable } from './PriceCalculatorTable.tsx';
import { PriceEstimator } from './PriceEstimator.tsx';

const gradeDescriptions: Record<(typeof gradeTiers)[number]['id'], string> = {
  grade_10_under: 'Grades 9 and 10 and younger: strong foundations and study habits before the senior years.',
  grade_11_12: 'Senior high school courses, including the university-preparation courses that count for admissions.',
  university: 'College and university courses, from first-year calculus to upper-year finance.',
};

const frequencyBlurbs: Record<(typeof packageFrequencies)[number]['id'], string> = {
  weekly_1: 'A steady weekly check-in to stay on top of coursework and keep skills sharp.',
  weekly_2: 'Our most popular choice: enough time to both keep up and get ahead, at 5% off.',
  weekly_3: 'For heavy course loads, exam season or catching up quickly, at 10% off.',
};

const included = [
  { icon: InfinityIcon, text: 'Sessions do not expire: use them at your own pace' },
  { icon: ReceiptText, text: 'No hidden fees: the price you see is the price you pay' },
  { icon: RefreshCw, text: 'Request a tutor change at any time' },
  { icon: CalendarRange, text: 'Evenings and weekends, synced to your calendar' },
] as const;

const faqs = [
  {
    q: 'Do unused sessions expire?',
    a: 'No. Sessions stay in your account until you use them, so a busy month or a holiday never costs you a lesson.',
  },
  {
    q: 'Can I get a refund?',
    a: 'All purchases are final and non-refundable, except where the law requires otherwise. Because sessions never expire, you can always use what you have bought later or with a different tutor.',
  },
  {
    q: 'What if I need to cancel or move a session?',
    a: "Cancel or reschedule with more than 12 hours' notice and the session goes back into your package. Later cancellations and missed sessions count as used.",
  },
  {
    q: 'Are there any other fees?',
    a: 'No. There is no sign-up fee, no matching fee and no platform fee. You pay for sessions and nothing else.',
  },
  {
    q: 'What if my tutor is not the right fit?',
    a: 'Ask for a change at any time. We will match you with another tutor for the same subject and grade level, and your remaining sessions carry over.',
  },
  {
    q: 'How long is a session?',
    a: 'Every session is a 60-minute, one-on-one online lesson with your tutor.',
  },
] as const;

export function PricingPage() {
  useDocumentTitle('Pricing');
  return (
    <>
      <PageHeader
        eyebrow="Pricing"
        title="Simple, transparent pricing"
        lead="One price per 60-minute session, set by grade level. Choose how often you meet, and save up to 10% with more sessions a week. All prices are in Canadian dollars, with no hidden fees."
      />

      <Section
        id="grade-prices"
        title="Per-session prices by grade level"
        intro="Every session is one-on-one, live and online, with a tutor matched to your subject and level."
        className="pt-4 sm:pt-6"
      >
        <ul className="grid gap-6 md:grid-cols-3">
          {gradeTiers.map((tier) => (
            <li key={tier.id}>
              <Card className="h-full">
                <CardContent>
                  <CardTitle>{tier.name}</CardTitle>
                  <p className="mt-4">
                    <span className="text-4xl font-bold tracking-tight text-slate-900">{wholeDollars(tier.basePrice)}</span>{' '}
                    <span className="text-sm text-slate-600">per session</span>
                  </p>
                  <p className="mt-3 text-sm leading-relaxed text-slate-600">{gradeDescriptions[tier.id]}</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </Section>

      <Section
        id="packages"
        tone="muted"
        eyebrow="Session packages"
        title="Choose how often you meet"
        intro="Monthly packages keep a regular rhythm with the same tutor. Prices below are for Grade 11-12; the calculator further down shows every level."
      >
        <ul className="grid gap-6 lg:grid-cols-3">
          {packageFrequencies.map((freq) => {
            const example = gradeTiers[1];
            const quote = quotePackage(example.basePrice, freq.sessionsPerMonth, freq.multiplier);
            return (
              <li key={freq.id}>
                <Card className={cn('relative h-full', freq.recommended && 'ring-2 ring-brand-600')}>
                  {freq.recommended ? <Badge className="absolute -top-3 left-6 shadow-sm">Recommended</Badge> : null}
                  <CardContent className="flex h-full flex-col">
                    <CardTitle>{freq.name}</CardTitle>
                    <p className="mt-1 text-sm text-slate-600">
                      {freq.sessionsPerMonth} sessions per month ·{' '}
                      {freq.discountPercent > 0 ? (
                        <span className="font-semibold text-success">{freq.discountPercent}% off</span>
                      ) : (
                        'no discount'
                      )}
                    </p>
                    <p className="mt-5">
                      <span className="text-4xl font-bold tracking-tight text-slate-900">{wholeDollars(quote.monthlyPrice)}</span>{' '}
                      <span className="text-sm text-slate-600">/ month for Grade 11-12</span>
                    </p>
                    <p className="mt-3 text-sm leading-relaxed text-slate-600">{frequencyBlurbs[freq.id]}</p>
                    <div className="mt-auto pt-6">
                      <AppLink
                        to="/login"
                        className={buttonVariants({
                          variant: freq.recommended ? 'default' : 'outline',
                          className: 'w-full',
                        })}
                      >
                        Choose {freq.name}
                      </AppLink>
                    </div>
                  </CardContent>
                </Card>
              </li>
            );
          })}
        </ul>

        <div className="mt-8 rounded-[var(--radius-card)] border border-dashed border-brand-300 bg-white p-6 sm:flex sm:items-center sm:justify-between sm:gap-8">
          <div>
            <h3 className="text-lg font-semibold text-slate-900">Prefer a flexible pack?</h3>
            <p className="mt-1 max-w-2xl text-sm leading-relaxed text-slate-600">
              Choose a pack of <strong className="text-slate-900">4, 8 or 12 sessions</strong> and schedule them freely, whenever your tutor
              has availability, with no fixed weekly slot. Ideal around exams, projects and busy sports seasons.
            </p>
          </div>
          <AppLink to="/login" className={buttonVariants({ variant: 'secondary', className: 'mt-4 sm:mt-0' })}>
            Get a flexible pack
          </AppLink>
        </div>

        <ul className="mt-10 grid gap-4 sm:grid-cols-2">
          {included.map(({ icon: Icon, text }) => (
            <li key={text} className="flex items-start gap-3 text-sm text-slate-700">
              <span className="inline-flex size-6 shrink-0 items-center justify-center rounded-full bg-success-muted text-success">
                <Check className="size-4" aria-hidden="true" />
              </span>
              <span className="flex items-center gap-2">
                <Icon className="hidden size-4 text-brand-700 sm:block" aria-hidden="true" />
                {text}
              </span>
            </li>
          ))}
        </ul>
      </Section>

      <Section
        id="calculator"
        eyebrow="Price calculator"
        title="Your monthly price at a glance"
        intro="Monthly price = per-session price × sessions per month × package discount, rounded to the nearest dollar."
      >
        <PriceEstimator />
        <h3 className="mt-12 text-xl font-semibold text-slate-900">Every level and package</h3>
        <p id="calculator-note" className="mt-2 mb-5 text-sm text-slate-600">
          Savings are compared with paying the standard per-session price for the same number of sessions. Prices in CAD.
        </p>
        <PriceCalculatorTable />
      </Section>

      <Section id="pricing-faq" tone="muted" eyebrow="Good to know" title="Pricing questions, answered">
        <dl className="grid gap-x-10 gap-y-8 md:grid-cols-2">
          {faqs.map((f) => (
            <div key={f.q}>
              <dt className="flex items-start gap-2 font-semibold text-slate-900">
                <ShieldCheck className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
                {f.q}
              </dt>
              <dd className="mt-2 pl-7 text-sm leading-relaxed text-slate-600">{f.a}</dd>
            </div>
          ))}
        </dl>
      </Section>

      <CallToAction
        title="Start with the package that fits"
        body="Create your free account, pick a subject and package, and choose from tutors matched to your grade level."
        secondary={
          <Link to="/contact" className={buttonVariants({ variant: 'ghostInverse', size: 'lg' })}>
            Ask us a question
          </Link>
        }
      />
    </>
  );
}
