import { ChevronDown, Clock, Mail, MapPin, MessageSquareReply, Phone } from 'lucide-react';
import { Accordion } from 'radix-ui';
import { AppLink } from '../../app/layout/AppLink.tsx';
import { site } from '../../app/site.ts';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { PageHeader, Section } from '../../components/marketing/PageHeader.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { ContactForm } from './ContactForm.tsx';

const faqs = [
  {
    q: 'How quickly will you reply?',
    a: `We reply to every message within 24 hours. Our support team is available ${site.supportHours}; messages sent over the weekend are answered first thing Monday.`,
  },
  {
    q: 'How do I get started?',
    a: 'Create a free account from the Student Login page and verify your email. Then choose a subject and package, pick a tutor matched to your grade level and book your first session.',
  },
  {
    q: 'Can a parent manage the account?',
    a: 'Yes. Students under 18 are registered by a parent or guardian, who can follow completed, upcoming and remaining sessions and read every session report. Adult students can manage their own account.',
  },
  {
    q: 'Can I change my tutor?',
    a: 'Yes, at any time. Tell us what is not working and we will match you with another tutor for the same subject and level. Your remaining sessions carry over.',
  },
  {
    q: 'What is your refund policy?',
    a: 'All purchases are final and non-refundable, except where the law requires otherwise. Sessions never expire, so anything you have bought stays available to use later.',
  },
  {
    q: 'How are sessions delivered?',
    a: "All sessions are 60 minutes, one-on-one and online. Each booking is synced to your calendar with the link to join. Cancel or reschedule with more than 12 hours' notice, otherwise the session counts as used.",
  },
  {
    q: 'How do I become a Topmark tutor?',
    a: 'Tutors do not sign themselves up. Visit the Tutor Login page to see the application steps: email us your transcript and resume, we review your application and interview shortlisted candidates, and selected tutors receive an account.',
  },
] as const;

export function ContactPage() {
  useDocumentTitle('Contact');

  const cards = [
    {
      icon: Mail,
      title: 'Email support',
      body: (
        <a href={`mailto:${site.supportEmail}`} className="font-medium text-brand-700 underline-offset-4 hover:underline">
          {site.supportEmail}
        </a>
      ),
      note: 'Best for questions about packages, tutors and your account.',
    },
    {
      icon: Phone,
      title: 'Call us',
      body: (
        <a href={site.supportPhoneHref} className="font-medium text-brand-700 underline-offset-4 hover:underline">
          {site.supportPhone}
        </a>
      ),
      note: `Phone lines are open ${site.supportHours}.`,
    },
    {
      icon: Clock,
      title: 'Support hours',
      body: <span className="font-medium text-slate-900">{site.supportHours}</span>,
      note: 'Messages outside these hours are answered the next business day.',
    },
    {
      icon: MessageSquareReply,
      title: 'Response time',
      body: <span className="font-medium text-slate-900">{site.replyPromise}</span>,
      note: 'Every message gets a personal reply from our team.',
    },
  ];

  return (
    <>
      <PageHeader
        eyebrow="Contact"
        title="We're here to help"
        lead="Questions about subjects, packages or getting matched with a tutor? Send us a message and a real person from our team will get back to you within 24 hours."
      />

      <section aria-label="Contact details" className="bg-white pb-4">
        <ul className="mx-auto grid max-w-7xl gap-4 px-4 sm:grid-cols-2 sm:px-6 lg:grid-cols-4 lg:px-8">
          {cards.map(({ icon: Icon, title, body, note }) => (
            <li key={title}>
              <Card className="h-full">
                <CardContent className="space-y-2">
                  <span className="inline-flex size-10 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                    <Icon className="size-5" aria-hidden="true" />
                  </span>
                  <h2 className="pt-2 text-base font-semibold text-slate-900">{title}</h2>
                  <p className="text-sm break-words">{body}</p>
                  <p className="text-sm text-slate-600">{note}</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="contact-form-heading" className="bg-white py-12 sm:py-16">
        <div className="mx-auto grid max-w-7xl gap-12 px-4 sm:px-6 lg:grid-cols-[1.4fr_1fr] lg:px-8">
          <Card>
            <CardContent className="sm:p-8">
              <h2 id="contact-form-heading" className="text-2xl font-bold tracking-tight text-slate-900">
                Send us a message
              </h2>
              <p className="mt-2 mb-6 text-sm text-slate-600">
                Fields marked optional can be left blank. We will send a confirmation to your email address.
              </p>
              <ContactForm />
            </CardContent>
          </Card>

          <aside aria-labelledby="other-ways-heading" className="space-y-6">
            <h2 id="other-ways-heading" className="text-xl font-semibold text-slate-900">
              Looking for something else?
            </h2>
            <div className="rounded-[var(--radius-card)] border border-border bg-slate-50 p-6">
              <h3 className="font-semibold text-slate-900">Already a student or parent?</h3>
              <p className="mt-1 text-sm leading-relaxed text-slate-600">
                Sign in to book and reschedule sessions, read session reports and renew packages.
              </p>
              <AppLink
                to="/login"
                className="mt-3 inline-block rounded-sm text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
              >
                Go to Student Login
              </AppLink>
            </div>
            <div className="rounded-[var(--radius-card)] border border-border bg-slate-50 p-6">
              <h3 className="font-semibold text-slate-900">Want to teach with us?</h3>
              <p className="mt-1 text-sm leading-relaxed text-slate-600">
                Tutors join by application: send your transcript and resume, then interview with our academic team.
              </p>
              <AppLink
                to="/tutor-login"
                className="mt-3 inline-block rounded-sm text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
              >
                See how to apply
              </AppLink>
            </div>
            <div className="flex items-start gap-3 rounded-[var(--radius-card)] border border-border bg-slate-50 p-6">
              <MapPin className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
              <p className="text-sm leading-relaxed text-slate-600">
                Topmark is based in <span className="font-medium text-slate-900">{site.location}</span>. All sessions take place online.
              </p>
            </div>
          </aside>
        </div>
      </section>

      <Section id="faq" tone="muted" eyebrow="FAQ" title="Frequently asked questions">
        <Accordion.Root
          type="single"
          collapsible
          className="mx-auto max-w-3xl divide-y divide-border rounded-[var(--radius-card)] border border-border bg-white"
        >
          {faqs.map((f, i) => (
            <Accordion.Item key={f.q} value={`faq-${i}`}>
              <Accordion.Header>
                <Accordion.Trigger className="group flex w-full items-center justify-between gap-4 px-5 py-4 text-left font-semibold text-slate-900 hover:bg-slate-50 sm:px-6">
                  {f.q}
                  <ChevronDown
                    className="size-5 shrink-0 text-slate-500 transition-transform group-data-[state=open]:rotate-180"
                    aria-hidden="true"
                  />
                </Accordion.Trigger>
              </Accordion.Header>
              <Accordion.Content className="px-5 pb-5 text-sm leading-relaxed text-slate-600 sm:px-6">{f.a}</Accordion.Content>
            </Accordion.Item>
          ))}
        </Accordion.Root>
      </Section>
    </>
  );
}
