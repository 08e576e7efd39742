import { Link } from '@tanstack/react-router';
import { CalendarClock, FileText, Mail, MailCheck, Rocket } from 'lucide-react';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { buttonVariants } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { ApplicationChecklist } from './TutorLoginPage.tsx';
import { TUTOR_APPLICATIONS_EMAIL } from './tutorApplication.ts';

const timeline = [
  {
    icon: CalendarClock,
    title: 'Review',
    text: 'We review your documents within 2-5 business days and may invite you to a short interview.',
  },
  { icon: MailCheck, title: 'Approval email', text: 'If you are approved, we email you to say your tutor account is ready.' },
  {
    icon: Rocket,
    title: 'Onboarding',
    text: 'At your next sign-in with Google you set up your profile, subjects and grade levels, availability and calendar.',
  },
] as const;

/** /tutor-applicant: the application-submitted page (spec part 2 §2). */
export function TutorApplicantPage() {
  useDocumentTitle('Tutor Application');
  const mailto = `mailto:${TUTOR_APPLICATIONS_EMAIL}?subject=${encodeURIComponent('Tutor application')}`;
  return (
    <section className="bg-gradient-to-b from-brand-50 to-white px-4 py-12 sm:py-16">
      <div className="mx-auto max-w-3xl">
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Tutor application</p>
        <h1 className="mt-3 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Your application is in</h1>
        <p className="mt-4 text-lg leading-relaxed text-slate-600">
          To complete it, email your documents to{' '}
          <a href={mailto} className="font-medium text-brand-700 underline-offset-4 hover:underline">
            {TUTOR_APPLICATIONS_EMAIL}
          </a>
          .
        </p>

        <div className="mt-10 grid gap-6 md:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle as="h2" className="flex items-center gap-2">
                <FileText className="size-5 text-brand-700" aria-hidden="true" />
                What to include
              </CardTitle>
              <CardDescription>Send everything in one email, from the address you signed in with.</CardDescription>
            </CardHeader>
            <CardContent>
              <ApplicationChecklist />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle as="h2" className="flex items-center gap-2">
                <CalendarClock className="size-5 text-brand-700" aria-hidden="true" />
                What happens next
              </CardTitle>
            </CardHeader>
            <CardContent>
              <ol className="space-y-4">
                {timeline.map(({ icon: Icon, title, text }) => (
                  <li key={title} className="flex gap-3">
                    <span className="inline-flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
                      <Icon className="size-4" aria-hidden="true" />
                    </span>
                    <div>
                      <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
                      <p className="mt-0.5 text-sm leading-relaxed text-slate-600">{text}</p>
                    </div>
                  </li>
                ))}
              </ol>
            </CardContent>
          </Card>
        </div>

        <div className="mt-8 flex flex-col gap-3 sm:flex-row">
          <a href={mailto} className={buttonVariants({ size: 'lg' })}>
            <Mail aria-hidden="true" />
            Email your documents
          </a>
          <Link to="/tutor-login" className={buttonVariants({ variant: 'outline', size: 'lg' })}>
            Back to the tutor login
          </Link>
        </div>
      </div>
    </section>
  );
}
