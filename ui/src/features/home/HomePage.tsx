import { gradeTiers } from '@shared/pricing/pricing.ts';
import { Link } from '@tanstack/react-router';
import {
  ArrowRight,
  CalendarCheck,
  CheckCircle2,
  ClipboardList,
  Clock,
  Infinity as InfinityIcon,
  RefreshCw,
  Star,
  UserCheck,
} from 'lucide-react';
import { AppLink } from '../../app/layout/AppLink.tsx';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { CallToAction } from '../../components/marketing/CallToAction.tsx';
import { IconCardGrid } from '../../components/marketing/IconCardGrid.tsx';
import { Section } from '../../components/marketing/PageHeader.tsx';
import { buttonVariants } from '../../components/ui/button.tsx';
import { Card, CardContent, CardTitle } from '../../components/ui/card.tsx';
import { subjects } from '../subjects/subjects.ts';

const features = [
  {
    icon: UserCheck,
    title: 'Matched one-on-one',
    body: 'After you choose a package we show you tutors matched to your subject and grade level. You pick who you work with, and you can request a tutor change at any time.',
  },
  {
    icon: CalendarCheck,
    title: 'Evenings and weekends',
    body: 'Every session is online, booked around school and activities, and synced straight to your calendar so nobody misses a lesson.',
  },
  {
    icon: InfinityIcon,
    title: 'Sessions never expire',
    body: 'Buy a package once and use it at your own pace. Prices are shown up front: no sign-up fees, no hidden fees, no surprises.',
  },
  {
    icon: ClipboardList,
    title: 'Progress you can see',
    body: 'Tutors write a short report after every session. Parents see completed, upcoming and remaining sessions for each package at a glance.',
  },
] as const;

const promises = ['No hidden fees', 'Sessions do not expire', 'Change tutor any time', 'Evenings and weekends'] as const;

export function HomePage() {
  useDocumentTitle('Home');
  const lowestPrice = Math.min(...gradeTiers.map((t) => t.basePrice));

  return (
    <>
      {/* Hero */}
      <section className="relative overflow-hidden bg-gradient-to-b from-brand-50 via-white to-white">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -top-40 right-[-10rem] size-[36rem] rounded-full bg-brand-100/80 blur-3xl"
        />
        <div className="relative mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-[1.15fr_1fr] lg:px-8">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full border border-brand-200 bg-white px-3 py-1 text-sm font-medium text-brand-800 shadow-sm">
              <Star className="size-4 fill-amber-400 text-amber-500" aria-hidden="true" />
              Online tutoring for Grade 9 to university
            </p>
            <h1 className="mt-6 text-4xl font-bold tracking-tight text-balance text-slate-900 sm:text-5xl lg:text-6xl">
              Personalised, long‑term tutoring that builds <span className="text-brand-700">independent problem solvers</span>
            </h1>
            <p className="mt-6 max-w-2xl text-lg leading-relaxed text-pretty text-slate-600">
              Topmark pairs each student with a dedicated tutor who gets to know how they think, then works with them week after week:
              closing gaps, building good habits and teaching them to tackle problems on their own. One-on-one, online, on evenings and
              weekends.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <AppLink to="/login" className={buttonVariants({ size: 'lg' })}>
                Get Started
                <ArrowRight aria-hidden="true" />
              </AppLink>
              <Link to="/how-it-works" className={buttonVariants({ variant: 'outline', size: 'lg' })}>
                How It Works
              </Link>
            </div>
            <ul className="mt-8 grid grid-cols-1 gap-x-6 gap-y-2 text-sm text-slate-700 sm:grid-cols-2">
              {promises.map((p) => (
                <li key={p} className="flex items-center gap-2">
                  <CheckCircle2 className="size-4 shrink-0 text-success" aria-hidden="true" />
                  {p}
                </li>
              ))}
            </ul>
          </div>

          <figure className="relative mx-auto w-full max-w-md lg:max-w-none">
            <div className="rounded-2xl border border-border bg-white p-6 shadow-xl shadow-brand-900/10">
              <div className="flex items-center justify-between">
                <p className="text-sm font-semibold text-slate-900">Session report</p>
                <span className="rounded-full bg-success-muted px-2.5 py-0.5 text-xs font-semibold text-success">Completed</span>
              </div>
              <p className="mt-1 text-sm text-slate-600">Grade 12 Calculus &amp; Vectors · 60 minutes</p>
              <dl className="mt-5 space-y-4 text-sm">
                <div>
                  <dt className="font-medium text-slate-900">What we covered</dt>
                  <dd className="mt-1 text-slate-600">Related rates: set up three problems from a diagram before touching any formulas.</dd>
                </div>
                <div>
                  <dt className="font-medium text-slate-900">Where Maya is now</dt>
                  <dd className="mt-1 text-slate-600">
                    Solved the last problem on her own and caught her own sign error. Big step from last week.
                  </dd>
                </div>
                <div>
                  <dt className="font-medium text-slate-900">Before next session</dt>
                  <dd className="mt-1 text-slate-600">Textbook 4.3, questions 6 to 10. Mark any step that feels like a guess.</dd>
                </div>
              </dl>
              <div className="mt-6 rounded-xl bg-brand-50 p-4">
                <div className="flex items-center justify-between text-sm">
                  <span className="font-medium text-brand-900">2x/week package</span>
                  <span className="text-brand-800">5 of 8 sessions used</span>
                </div>
                <div className="mt-2 h-2 overflow-hidden rounded-full bg-white" aria-hidden="true">
                  <div className="h-full w-[62.5%] rounded-full bg-brand-600" />
                </div>
                <p className="mt-3 flex items-center gap-2 text-sm text-brand-900">
                  <Clock className="size-4" aria-hidden="true" />
                  Next: Thursday, 7:00 PM
                </p>
              </div>
            </div>
            <figcaption className="mt-3 text-center text-xs text-slate-500">
              An example of the report parents and students see after every session.
            </figcaption>
          </figure>
        </div>
      </section>

      {/* Feature cards */}
      <Section
        id="why-topmark"
        eyebrow="Why families choose Topmark"
        title="Tutoring built for the long run"
        intro="Quick fixes before a test rarely last. We focus on steady, week-by-week progress with one tutor who knows the student, so the gains stick after the tutoring ends."
      >
        <IconCardGrid items={features} />
      </Section>

      {/* Subjects */}
      <Section
        id="subjects"
        tone="muted"
        eyebrow="Subjects"
        title="Eight subjects, taught by specialists"
        intro="From Grade 9 science to third-year corporate finance, every tutor teaches the subjects they know best."
      >
        <ul className="grid grid-cols-2 gap-4 md:grid-cols-4">
          {subjects.map(({ id, name, icon: Icon, tagline }) => (
            <li key={id}>
              <Link
                to="/subjects"
                hash={id}
                className="group flex h-full flex-col rounded-[var(--radius-card)] border border-border bg-white p-5 shadow-sm transition hover:-translate-y-0.5 hover:border-brand-300 hover:shadow-md"
              >
                <Icon className="size-7 text-brand-700" aria-hidden="true" />
                <span className="mt-4 font-semibold text-slate-900 group-hover:text-brand-800">{name}</span>
                <span className="mt-1 text-sm text-slate-600">{tagline}</span>
              </Link>
            </li>
          ))}
        </ul>
        <p className="mt-8 text-center">
          <Link to="/subjects" className={buttonVariants({ variant: 'link' })}>
            Explore topics and levels
            <ArrowRight aria-hidden="true" />
          </Link>
        </p>
      </Section>

      {/* Price summary */}
      <Section
        id="pricing"
        eyebrow="Simple pricing"
        title={`Sessions from $${lowestPrice}`}
        intro="One price per session, set by grade level. Book more sessions a week and the per-session price goes down."
        centered
      >
        <ul className="mx-auto grid max-w-5xl gap-6 md:grid-cols-3">
          {gradeTiers.map((tier, i) => (
            <li key={tier.id}>
              <Card className={i === 1 ? 'h-full ring-2 ring-brand-300' : 'h-full'}>
                <CardContent className="text-center">
                  <CardTitle>{tier.name}</CardTitle>
                  <p className="mt-4">
                    <span className="text-4xl font-bold tracking-tight text-slate-900">${tier.basePrice}</span>{' '}
                    <span className="text-sm text-slate-600">per session</span>
                  </p>
                  <p className="mt-3 text-sm text-slate-600">One-on-one, 60 minutes, online. Save up to 10% with a 3x/week package.</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
        <div className="mx-auto mt-8 max-w-3xl space-y-2 text-center text-sm text-slate-600">
          <p>
            <strong className="font-semibold text-slate-900">No hidden fees, and sessions do not expire.</strong> You can request a tutor
            change at any time.
          </p>
          <p>All purchases are final and non-refundable, except where the law requires otherwise.</p>
        </div>
        <p className="mt-8 text-center">
          <Link to="/pricing" className={buttonVariants({ variant: 'outline' })}>
            See packages and monthly prices
          </Link>
        </p>
      </Section>

      {/* How it fits together */}
      <Section id="online" tone="muted" eyebrow="Online, on your schedule" title="Lessons that fit around real life">
        <div className="grid gap-6 md:grid-cols-3">
          {[
            {
              icon: CalendarCheck,
              title: 'Synced to your calendar',
              body: 'Every booked session is added to the calendar automatically, with the link to join. Reschedules update it too.',
            },
            {
              icon: Clock,
              title: 'Evenings and weekends',
              body: 'Tutors teach after school and on weekends, when students are actually free and ready to focus.',
            },
            {
              icon: RefreshCw,
              title: 'Change tutor any time',
              body: 'The right fit matters. If it is not working, ask for a different tutor and keep your remaining sessions.',
            },
          ].map(({ icon: Icon, title, body }) => (
            <div key={title} className="flex gap-4">
              <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-white text-brand-700 shadow-sm ring-1 ring-border">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <div>
                <h3 className="font-semibold text-slate-900">{title}</h3>
                <p className="mt-1 text-sm leading-relaxed text-slate-600">{body}</p>
              </div>
            </div>
          ))}
        </div>
      </Section>

      <CallToAction
        secondary={
          <Link to="/pricing" className={buttonVariants({ variant: 'ghostInverse', size: 'lg' })}>
            Compare packages
          </Link>
        }
      />
    </>
  );
}
