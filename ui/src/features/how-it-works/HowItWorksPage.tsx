import { Link } from '@tanstack/react-router';
import {
  BarChart3,
  CalendarCheck,
  CalendarClock,
  CreditCard,
  FileText,
  GraduationCap,
  type LucideIcon,
  MailCheck,
  MonitorPlay,
  RefreshCw,
  ShieldCheck,
  Users,
  Video,
} from 'lucide-react';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { CallToAction } from '../../components/marketing/CallToAction.tsx';
import { PageHeader, Section } from '../../components/marketing/PageHeader.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { buttonVariants } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardTitle } from '../../components/ui/card.tsx';

interface Step {
  icon: LucideIcon;
  title: string;
  body: string;
}

const steps: readonly Step[] = [
  {
    icon: MailCheck,
    title: 'Sign up and verify your email',
    body: 'Create a free account in a couple of minutes, then confirm your email address with the 6-digit code we send you. Students under 18 are registered by a parent or guardian; adult students can manage their own account.',
  },
  {
    icon: CreditCard,
    title: 'Choose and pay for a package',
    body: 'Pick the subject, the grade level and how often you want to meet: once, twice or three times a week, or a flexible pack of 4, 8 or 12 sessions. Prices are shown in full before you pay, and your sessions never expire.',
  },
  {
    icon: Users,
    title: 'See tutors matched to you',
    body: 'We show you tutors matched by subject and grade level, with their background and teaching approach, so you choose the person you want to learn with.',
  },
  {
    icon: CalendarClock,
    title: 'Schedule sessions with your tutor',
    body: "Book times straight from your tutor's live availability, including evenings and weekends. Each booking is synced to your calendar with the link to join, and you can reschedule with more than 12 hours' notice.",
  },
  {
    icon: MonitorPlay,
    title: 'Learn, one-on-one and online',
    body: 'Sessions are live and online, so there is no commute. Your tutor works on your real coursework while teaching the reasoning behind it, so you can handle the next problem on your own.',
  },
  {
    icon: BarChart3,
    title: 'Track progress through session reports',
    body: 'After every session the tutor writes a short report: what was covered, how it went and what to practise next. Students and parents can read every report at any time.',
  },
];

const platformFeatures: readonly Step[] = [
  {
    icon: CalendarCheck,
    title: 'Calendar sync',
    body: 'Bookings, reschedules and cancellations appear in your calendar automatically, in your own time zone.',
  },
  {
    icon: FileText,
    title: 'Session reports',
    body: 'A written summary after every lesson builds a running record of what has been learned and what comes next.',
  },
  {
    icon: RefreshCw,
    title: 'Tutor changes on request',
    body: 'If the fit is not right, request a different tutor at any time. Your remaining sessions move with you.',
  },
  {
    icon: Video,
    title: 'One link to join',
    body: 'Each session has its own video link in the calendar invite and on your dashboard, so joining takes one click.',
  },
  {
    icon: ShieldCheck,
    title: 'Secure payments',
    body: 'Pay by card through a trusted payment provider. We never see or store your full card number.',
  },
  {
    icon: GraduationCap,
    title: 'Vetted tutors',
    body: 'Every tutor is reviewed and interviewed before they teach. Tutors cannot sign themselves up.',
  },
];

const dashboardPackages = [
  { subject: 'Grade 11 Chemistry', plan: '2x/week package', completed: 5, upcoming: 2, total: 8, tutor: 'Daniel R.' },
  { subject: 'Grade 11 Functions', plan: '1x/week package', completed: 3, upcoming: 1, total: 4, tutor: 'Amara O.' },
] as const;

export function HowItWorksPage() {
  useDocumentTitle('How It Works');
  return (
    <>
      <PageHeader
        eyebrow="How It Works"
        title="From sign-up to steady progress in six steps"
        lead="Topmark keeps the logistics simple so the time goes where it matters: one tutor, working with one student, week after week. Here is exactly what happens after you sign up."
      />

      <Section id="steps" title="Six steps to getting started" className="pt-4 sm:pt-6">
        <ol className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {steps.map(({ icon: Icon, title, body }, index) => (
            <li key={title}>
              <Card className="h-full">
                <CardContent>
                  <div className="flex items-center gap-3">
                    <span
                      className="inline-flex size-10 items-center justify-center rounded-full bg-primary text-base font-bold text-primary-foreground"
                      aria-hidden="true"
                    >
                      {index + 1}
                    </span>
                    <Icon className="size-6 text-brand-700" aria-hidden="true" />
                  </div>
                  <h3 className="mt-5 text-lg font-semibold text-slate-900">
                    <span className="sr-only">Step {index + 1}: </span>
                    {title}
                  </h3>
                  <p className="mt-2 text-sm leading-relaxed text-slate-600">{body}</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ol>
      </Section>

      <Section
        id="features"
        tone="muted"
        eyebrow="Platform features"
        title="Everything in one place"
        intro="The same account handles booking, payments, reports and communication, so nothing slips through the cracks between sessions."
      >
        <ul className="grid gap-x-8 gap-y-10 sm:grid-cols-2 lg:grid-cols-3">
          {platformFeatures.map(({ icon: Icon, title, body }) => (
            <li key={title} className="flex gap-4">
              <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-white text-brand-700 shadow-sm ring-1 ring-border">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <div>
                <h3 className="font-semibold text-slate-900">{title}</h3>
                <p className="mt-1 text-sm leading-relaxed text-slate-600">{body}</p>
              </div>
            </li>
          ))}
        </ul>
      </Section>

      <Section
        id="parent-dashboard"
        eyebrow="For parents"
        title="A parent dashboard with no guesswork"
        intro="See how every package is being used: completed, upcoming and remaining sessions, side by side, with a one-click renewal when a package runs low."
      >
        <div className="grid items-start gap-10 lg:grid-cols-[1.3fr_1fr]">
          <figure>
            <div className="overflow-hidden rounded-2xl border border-border bg-white shadow-xl shadow-brand-900/10">
              <div className="flex items-center justify-between gap-3 border-b border-border bg-slate-50 px-5 py-3">
                <p className="text-sm font-semibold text-slate-900">Parent dashboard</p>
                <span className="text-xs text-slate-600">Example view</span>
              </div>
              <ul className="divide-y divide-border">
                {dashboardPackages.map((p) => {
                  const remaining = p.total - p.completed - p.upcoming;
                  const low = p.total - p.completed <= 1 || remaining === 0;
                  return (
                    <li key={p.subject} className="p-5">
                      <div className="flex flex-wrap items-start justify-between gap-2">
                        <div>
                          <p className="font-semibold text-slate-900">{p.subject}</p>
                          <p className="text-sm text-slate-600">
                            {p.plan} · Tutor: {p.tutor}
                          </p>
                        </div>
                        {low ? <Badge variant="secondary">Renewal due soon</Badge> : <Badge variant="success">Active</Badge>}
                      </div>
                      <dl className="mt-4 grid grid-cols-3 gap-3 text-center">
                        <div className="rounded-lg bg-success-muted px-2 py-3">
                          <dt className="text-xs font-medium text-success">Completed</dt>
                          <dd className="mt-1 text-2xl font-bold text-slate-900">{p.completed}</dd>
                        </div>
                        <div className="rounded-lg bg-brand-50 px-2 py-3">
                          <dt className="text-xs font-medium text-brand-800">Upcoming</dt>
                          <dd className="mt-1 text-2xl font-bold text-slate-900">{p.upcoming}</dd>
                        </div>
                        <div className="rounded-lg bg-slate-100 px-2 py-3">
                          <dt className="text-xs font-medium text-slate-700">Remaining</dt>
                          <dd className="mt-1 text-2xl font-bold text-slate-900">{remaining}</dd>
                        </div>
                      </dl>
                      <div
                        className="mt-4 flex h-2 overflow-hidden rounded-full bg-slate-100"
                        role="img"
                        aria-label={`${p.completed} completed, ${p.upcoming} upcoming, ${remaining} remaining of ${p.total} sessions`}
                      >
                        <div className="bg-emerald-500" style={{ width: `${(p.completed / p.total) * 100}%` }} />
                        <div className="bg-brand-500" style={{ width: `${(p.upcoming / p.total) * 100}%` }} />
                      </div>
                      {low ? (
                        <div className="mt-4 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-brand-200 bg-brand-50 px-4 py-3">
                          <p className="text-sm text-brand-900">All sessions in this package are used or booked.</p>
                          <span className={buttonVariants({ size: 'sm' })} aria-hidden="true">
                            Renew package
                          </span>
                        </div>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
            </div>
            <figcaption className="mt-3 text-center text-xs text-slate-500">
              Example data. Your dashboard shows your own packages and sessions.
            </figcaption>
          </figure>

          <div className="space-y-6">
            <Card>
              <CardContent className="space-y-2">
                <CardTitle>Know where every session went</CardTitle>
                <CardDescription className="leading-relaxed">
                  Each package shows completed, upcoming and remaining sessions, so you always know what you have paid for and what is left.
                </CardDescription>
              </CardContent>
            </Card>
            <Card>
              <CardContent className="space-y-2">
                <CardTitle>Renew in one step</CardTitle>
                <CardDescription className="leading-relaxed">
                  When a package is running low, renew it with the same tutor and schedule. Unused sessions never expire, so renewing early
                  loses nothing.
                </CardDescription>
              </CardContent>
            </Card>
            <Card>
              <CardContent className="space-y-2">
                <CardTitle>Read every report</CardTitle>
                <CardDescription className="leading-relaxed">
                  Session reports from the tutor tell you what was covered and what to practise, in plain language, after every lesson.
                </CardDescription>
              </CardContent>
            </Card>
          </div>
        </div>
      </Section>

      <CallToAction
        title="Start with step one today"
        body="Creating an account is free. You only pay when you choose a package, and every price is shown up front."
        secondary={
          <Link to="/pricing" className={buttonVariants({ variant: 'ghostInverse', size: 'lg' })}>
            View pricing
          </Link>
        }
      />
    </>
  );
}
