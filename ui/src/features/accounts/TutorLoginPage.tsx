import { CURRENT_TERMS_VERSION } from '@shared/accounts/accountForms.ts';
import { Link } from '@tanstack/react-router';
import { CalendarDays, CheckCircle2, CircleAlert, FileText, Mail, UserCheck, Users } from 'lucide-react';
import type * as React from 'react';
import { useState } from 'react';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { checkboxClasses } from '../../components/FieldMessage.tsx';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert.tsx';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { googleSignInUrl } from './api.ts';
import { GoogleMark } from './GoogleSignInButton.tsx';
import { SignedOutOnly } from './SignedOutOnly.tsx';
import { applicationDecision, TUTOR_APPLICATIONS_EMAIL } from './tutorApplication.ts';

export const TUTOR_TERMS_REQUIRED = 'Please accept the terms and conditions before continuing.';

const steps = [
  {
    icon: Mail,
    title: 'Email your documents',
    text: `Send your resume, a short cover letter and an unofficial transcript to ${TUTOR_APPLICATIONS_EMAIL}.`,
  },
  {
    icon: Users,
    title: 'Review and interview',
    text: 'Our team reviews every application and invites shortlisted candidates to a short online interview.',
  },
  {
    icon: UserCheck,
    title: 'Account created',
    text: 'If you are selected, we create your tutor account and you sign in here with Google to set up your profile.',
  },
] as const;

/**
 * /tutor-login and /tutor-signup: the tutor application page (spec part 1 §2, part 2 §2).
 * `status === 'submitted'` (back from Google sign-in as a new applicant) shows the next step;
 * `rejected` or `denied` (an applicant signing in again after the review) shows the decision.
 */
export function TutorLoginPage({ status }: { status?: string | undefined }) {
  useDocumentTitle('Tutor Login');
  if (status === 'submitted') return <ApplicationSubmitted />;
  const decision = applicationDecision(status);
  if (decision) return <ApplicationDecided decision={decision} />;
  return (
    <SignedOutOnly>
      <TutorApplication />
    </SignedOutOnly>
  );
}

function TutorApplication() {
  const [accepted, setAccepted] = useState(false);
  const [showTermsError, setShowTermsError] = useState(false);

  const onContinue = () => {
    if (!accepted) {
      setShowTermsError(true);
      return;
    }
    // A full-page navigation: the server answers with a redirect to Google. The accepted agreement
    // travels with the sign-in and is recorded on the application (not asked again once approved).
    window.location.assign(`${googleSignInUrl.tutor}&termsAcceptedVersion=${CURRENT_TERMS_VERSION}`);
  };

  return (
    <section className="bg-gradient-to-b from-brand-50 to-white px-4 py-12 sm:py-16">
      <div className="mx-auto grid max-w-6xl gap-10 lg:grid-cols-[1.1fr_1fr] lg:items-start">
        <div>
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Tutors</p>
          <h1 className="mt-3 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Tutor Login & Applications</h1>
          <p className="mt-4 text-lg leading-relaxed text-slate-600">
            Topmark tutors do not sign themselves up: every tutor is reviewed and interviewed first. Approved tutors sign in with Google.
            Applying takes three steps.
          </p>
          <ol className="mt-8 space-y-5">
            {steps.map(({ icon: Icon, title, text }, index) => (
              <li key={title} className="flex gap-4">
                <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-700 text-sm font-bold text-white">
                  {index + 1}
                </span>
                <div>
                  <h2 className="flex items-center gap-2 font-semibold text-slate-900">
                    <Icon className="size-4 text-brand-700" aria-hidden="true" />
                    {title}
                  </h2>
                  <p className="mt-1 text-sm leading-relaxed text-slate-600">{text}</p>
                </div>
              </li>
            ))}
          </ol>
        </div>

        <Card>
          <CardHeader>
            <CardTitle as="h2">Continue as a tutor</CardTitle>
            <CardDescription>Approved tutors sign in here. New applicants start their application the same way.</CardDescription>
          </CardHeader>
          <CardContent className="space-y-5">
            <Alert>
              <CalendarDays aria-hidden="true" />
              <AlertTitle>Calendar access</AlertTitle>
              <AlertDescription>
                Google will ask you to let Topmark use your Google Calendar, so that students can book sessions in the hours you make
                available. If you are not selected, your calendar is not used.
              </AlertDescription>
            </Alert>

            <div className="space-y-2">
              <div className="flex items-start gap-3">
                <input
                  id="tutor-terms"
                  type="checkbox"
                  className={checkboxClasses}
                  checked={accepted}
                  aria-describedby={showTermsError && !accepted ? 'tutor-terms-error' : 'tutor-terms-summary'}
                  aria-invalid={showTermsError && !accepted ? true : undefined}
                  onChange={(event) => {
                    setAccepted(event.target.checked);
                    if (event.target.checked) setShowTermsError(false);
                  }}
                />
                <div className="text-sm leading-snug">
                  <label htmlFor="tutor-terms" className="font-medium text-slate-900">
                    I accept the terms and conditions
                  </label>
                  <p id="tutor-terms-summary" className="mt-1 text-slate-600">
                    The information and documents I send are accurate; Topmark may review them and contact me about my application; Topmark
                    may use my Google Calendar for scheduling if I am selected.
                  </p>
                </div>
              </div>
              {showTermsError && !accepted ? (
                <p id="tutor-terms-error" role="alert" className="flex items-center gap-1.5 text-sm font-medium text-destructive-text">
                  <CircleAlert className="size-4 shrink-0" aria-hidden="true" />
                  {TUTOR_TERMS_REQUIRED}
                </p>
              ) : null}
            </div>

            <Button variant="outline" size="lg" className="w-full" onClick={onContinue}>
              <GoogleMark />
              Continue with Google
            </Button>

            <p className="text-center text-sm text-slate-600">
              Student or parent?{' '}
              <Link to="/login" className="font-medium text-brand-700 underline-offset-4 hover:underline">
                Go to the student login
              </Link>
            </p>
          </CardContent>
        </Card>
      </div>
    </section>
  );
}

/** What an applicant sends (shared with /tutor-applicant). */
export function ApplicationChecklist() {
  const items: ReadonlyArray<React.ReactNode> = [
    'Your resume, with any teaching or tutoring experience',
    'A short cover letter: why you tutor and how you teach',
    'An unofficial transcript',
    'The subjects and grade levels you can teach',
    'Your usual weekly availability (evenings and weekends are most requested)',
  ];
  return (
    <ul className="space-y-2">
      {items.map((item) => (
        <li key={String(item)} className="flex items-start gap-2 text-sm text-slate-700">
          <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}

function ApplicationDecided({ decision }: { decision: NonNullable<ReturnType<typeof applicationDecision>> }) {
  return (
    <section className="bg-gradient-to-b from-brand-50 to-white px-4 py-12 sm:py-16">
      <div className="mx-auto max-w-2xl">
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertTitle className="text-base">
            <h1>{decision.title}</h1>
          </AlertTitle>
          <AlertDescription>{decision.text}</AlertDescription>
        </Alert>
        <p className="mt-6 text-sm leading-relaxed text-slate-600">{decision.next}</p>
        <div className="mt-6">
          <Link to="/" className={buttonVariants({ variant: 'outline', size: 'lg' })}>
            Back to home
          </Link>
        </div>
      </div>
    </section>
  );
}

function ApplicationSubmitted() {
  const mailto = `mailto:${TUTOR_APPLICATIONS_EMAIL}?subject=${encodeURIComponent('Tutor application')}`;
  return (
    <section className="bg-gradient-to-b from-brand-50 to-white px-4 py-12 sm:py-16">
      <div className="mx-auto max-w-2xl">
        <Alert variant="success">
          <CheckCircle2 aria-hidden="true" />
          <AlertTitle className="text-base">
            <h1>Application Submitted!</h1>
          </AlertTitle>
          <AlertDescription>Your Google account is linked to your application. One step is left: send us your documents.</AlertDescription>
        </Alert>
        <Card className="mt-8">
          <CardHeader>
            <CardTitle as="h2" className="flex items-center gap-2">
              <FileText className="size-5 text-brand-700" aria-hidden="true" />
              Email your resume and cover letter
            </CardTitle>
            <CardDescription>
              Send them to{' '}
              <a href={mailto} className="font-medium text-brand-700 underline-offset-4 hover:underline">
                {TUTOR_APPLICATIONS_EMAIL}
              </a>{' '}
              from the address you signed in with, so we can match them to your application.
            </CardDescription>
          </CardHeader>
          <CardContent className="space-y-6">
            <ApplicationChecklist />
            <p className="text-sm leading-relaxed text-slate-600">
              We review applications within 2-5 business days. If you are selected for the next step, we email you about an interview; once
              you are approved, sign in here with Google to set up your profile.
            </p>
            <div className="flex flex-col gap-3 sm:flex-row">
              <a href={mailto} className={buttonVariants({ size: 'lg' })}>
                <Mail aria-hidden="true" />
                Email {TUTOR_APPLICATIONS_EMAIL}
              </a>
              <Link to="/" className={buttonVariants({ variant: 'outline', size: 'lg' })}>
                Back to home
              </Link>
            </div>
          </CardContent>
        </Card>
      </div>
    </section>
  );
}
