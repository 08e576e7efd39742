import { Link } from '@tanstack/react-router';
import { Compass, HeartHandshake, Lightbulb, MapPin, Scale, Target, TrendingUp } from 'lucide-react';
import { site } from '../../app/site.ts';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { CallToAction } from '../../components/marketing/CallToAction.tsx';
import { IconCardGrid } from '../../components/marketing/IconCardGrid.tsx';
import { PageHeader, Section } from '../../components/marketing/PageHeader.tsx';
import { buttonVariants } from '../../components/ui/button.tsx';
import { Card, CardContent, CardTitle } from '../../components/ui/card.tsx';

const values = [
  {
    icon: Lightbulb,
    title: 'Independence over answers',
    body: 'A good session ends with the student able to do something they could not do before, on their own. We measure ourselves by how little help students need over time.',
  },
  {
    icon: HeartHandshake,
    title: 'Relationships that last',
    body: 'Progress comes from a tutor who knows the student: how they think, where they get stuck, what motivates them. We build for months and years, not single sessions.',
  },
  {
    icon: Scale,
    title: 'Honesty about money and time',
    body: 'Prices are shown in full before you pay, sessions never expire and there are no hidden fees. We would rather explain a policy up front than surprise a family later.',
  },
  {
    icon: TrendingUp,
    title: 'Visible progress',
    body: 'Every session ends with a written report. Families should never have to wonder what their tutoring is achieving.',
  },
] as const;

const team = [
  {
    name: 'Sarah Chen',
    role: 'Co-founder & Chief Executive Officer',
    bio: 'Former high-school mathematics teacher who spent a decade watching strong students struggle once the support stopped. Sarah started Topmark to make long-term tutoring accessible to more families.',
  },
  {
    name: 'Michael Okafor',
    role: 'Co-founder & Head of Academics',
    bio: 'Physics graduate and career tutor who designs how Topmark recruits, interviews and supports its tutors, and who still teaches a few students every week.',
  },
  {
    name: 'Priya Raman',
    role: 'Director of Tutor Success',
    bio: 'Leads tutor onboarding and quality. Priya reviews session reports, runs tutor training and makes sure every tutor change request is handled quickly and kindly.',
  },
  {
    name: 'David Laurent',
    role: 'Head of Family Support',
    bio: 'Answers the questions parents actually ask, from choosing a package to planning for exam season. David and his team reply to every message within 24 hours.',
  },
] as const;

const philosophy = [
  {
    title: 'Diagnose before teaching',
    body: 'The first sessions are spent finding the real gap. A struggle with calculus is often a struggle with algebra, and fixing the root saves months.',
  },
  {
    title: 'Students do the thinking',
    body: 'Tutors ask more than they tell. Students explain their reasoning out loud, make attempts and correct their own mistakes, because that is how understanding sticks.',
  },
  {
    title: 'Real coursework, deeper skills',
    body: 'We work on the homework, labs and essays students actually have, while teaching the general method behind each one so it transfers to the next problem.',
  },
  {
    title: 'Consistency beats cramming',
    body: 'Regular sessions with the same tutor compound. That is why our packages are built around a weekly rhythm and why sessions never expire.',
  },
] as const;

function initials(name: string): string {
  return name
    .split(' ')
    .map((part) => part[0] ?? '')
    .join('');
}

export function AboutPage() {
  useDocumentTitle('About Us');
  return (
    <>
      <PageHeader
        eyebrow="About Us"
        title="We help students become independent problem solvers"
        lead={`Topmark is an online tutoring company based in ${site.location}. We match students from Grade 9 through university with dedicated tutors for long-term, one-on-one learning that lasts beyond the next test.`}
      />

      <Section id="mission" title="Our mission" className="pt-4 sm:pt-6">
        <div className="grid gap-10 lg:grid-cols-2">
          <div className="space-y-4 text-lg leading-relaxed text-slate-700">
            <p>
              Too much tutoring is built around the next deadline: a rushed session before a test, an assignment finished together, and then
              the same struggle a week later. Students end up depending on the help rather than growing out of it.
            </p>
            <p>
              Our mission is to make personalised, long-term tutoring simple and affordable for families, so that every student can build
              the knowledge, habits and confidence to solve problems on their own.
            </p>
          </div>
          <ul className="grid gap-4 sm:grid-cols-2">
            {[
              { icon: Target, label: 'Focus', text: 'One tutor, one student, week after week' },
              { icon: Compass, label: 'Levels', text: 'Grade 10 & Under, Grade 11-12 and University' },
              { icon: MapPin, label: 'Home base', text: `${site.location}, teaching online` },
              { icon: HeartHandshake, label: 'Support', text: `${site.supportHours}, reply within 24 hours` },
            ].map(({ icon: Icon, label, text }) => (
              <li key={label} className="rounded-[var(--radius-card)] border border-border bg-slate-50 p-5">
                <Icon className="size-6 text-brand-700" aria-hidden="true" />
                <p className="mt-3 text-sm font-semibold text-slate-900">{label}</p>
                <p className="mt-1 text-sm text-slate-600">{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </Section>

      <Section
        id="values"
        tone="muted"
        eyebrow="Core values"
        title="What we stand for"
        intro="These four ideas shape every decision, from how we choose tutors to how we write our policies."
      >
        <IconCardGrid items={values} />
      </Section>

      <Section
        id="team"
        eyebrow="Leadership team"
        title="The people behind Topmark"
        intro="Teachers, tutors and parents who have seen what steady, personal support can do."
      >
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {team.map((person) => (
            <li key={person.name}>
              <Card className="h-full">
                <CardContent>
                  <span
                    className="inline-flex size-16 items-center justify-center rounded-full bg-brand-800 text-xl font-semibold text-white"
                    aria-hidden="true"
                  >
                    {initials(person.name)}
                  </span>
                  <CardTitle className="mt-5">{person.name}</CardTitle>
                  <p className="mt-1 text-sm font-medium text-brand-700">{person.role}</p>
                  <p className="mt-3 text-sm leading-relaxed text-slate-600">{person.bio}</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </Section>

      <Section
        id="philosophy"
        tone="muted"
        eyebrow="Teaching philosophy"
        title="How our tutors teach"
        intro="Every Topmark tutor is reviewed and interviewed before they teach, and every one works from the same four principles."
      >
        <ol className="grid gap-6 md:grid-cols-2">
          {philosophy.map((item, index) => (
            <li key={item.title} className="flex gap-4 rounded-[var(--radius-card)] border border-border bg-white p-6">
              <span
                className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-50 font-bold text-brand-800"
                aria-hidden="true"
              >
                {index + 1}
              </span>
              <div>
                <h3 className="font-semibold text-slate-900">{item.title}</h3>
                <p className="mt-1 text-sm leading-relaxed text-slate-600">{item.body}</p>
              </div>
            </li>
          ))}
        </ol>
        <p className="mt-10 max-w-3xl text-sm leading-relaxed text-slate-600">
          Topmark is a Canadian company operating from {site.location}, and our student, parent and tutor agreements are governed by the
          laws of Ontario. Sessions are online, so we work with families wherever they live.
        </p>
        <div className="mt-6">
          <Link to="/how-it-works" className={buttonVariants({ variant: 'outline' })}>
            See how it works
          </Link>
        </div>
      </Section>

      <CallToAction />
    </>
  );
}
