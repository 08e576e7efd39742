import { CURRENT_TERMS_VERSION } from '@shared/accounts/accountForms.ts';
import { site } from '../../app/site.ts';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '../../components/ui/dialog.tsx';
import { cn } from '../../lib/utils.ts';

const sections: ReadonlyArray<{ title: string; paragraphs: readonly string[] }> = [
  {
    title: '1. Who this agreement is between',
    paragraphs: [
      `This agreement is between ${site.name} ("we", "us") and the person who holds the account ("you"). When a student is under 18, the parent or guardian who registers the student accepts this agreement on the student's behalf and is responsible for the account, its purchases and the student's use of the service. An adult student accepts it for themselves.`,
      'You confirm that the information you give us is accurate and that you will keep it up to date. Keep your password private; you are responsible for what is done with your sign-in details, including any view-only login you set up for another family member.',
    ],
  },
  {
    title: '2. Packages and payment',
    paragraphs: [
      'Tutoring is sold as prepaid packages of sessions for a subject. The price, the number of sessions and any promotion are shown before you pay, in Canadian dollars.',
      'All purchases are final and non-refundable, except where the law requires a refund. Nothing in this agreement limits rights you have under the consumer protection laws that apply to you.',
    ],
  },
  {
    title: '3. Scheduling and cancellation',
    paragraphs: [
      'Sessions are one-on-one, online and 60 minutes long. You book them through your account in the times your tutor has made available; times are shown in your own time zone.',
      "To cancel or postpone a session, do so with more than 12 hours' notice before it starts. If you cancel or postpone with 12 hours' notice or less, or do not attend, the session counts as used and is deducted from your package. A session the tutor cancels is not deducted.",
    ],
  },
  {
    title: '4. Conduct',
    paragraphs: [
      'Treat tutors and staff with respect. Harassment, discriminatory or abusive language, and sharing inappropriate content end the session and may lead to the account being suspended or closed.',
      'Tutors help students understand and practise; they will not complete graded assignments, tests or exams on a student’s behalf. Do not record a session without the consent of everyone in it.',
    ],
  },
  {
    title: '5. Non-solicitation of tutors',
    paragraphs: [
      `While you use ${site.name} and for 12 months after your account ends, you agree not to hire, pay or arrange tutoring directly with any tutor you were introduced to through ${site.name}, outside the platform, and not to ask a tutor to do so.`,
    ],
  },
  {
    title: '6. No guarantee of outcomes',
    paragraphs: [
      'Tutoring supports a student’s learning, but results depend on many things outside our control. We do not guarantee any grade, mark, exam result or admission.',
    ],
  },
  {
    title: '7. Your information',
    paragraphs: [
      'We use your personal information to run your account, match you with tutors, schedule sessions and contact you about them. You can delete your account at any time from your dashboard; your personal data is then erased, except what the law requires us to keep.',
    ],
  },
  {
    title: '8. Changes to this agreement',
    paragraphs: [
      'If we change this agreement, we will show you the new version and ask you to accept it before you continue using the service.',
    ],
  },
  {
    title: '9. Governing law',
    paragraphs: [
      'This agreement is governed by the laws of the Province of Ontario and the federal laws of Canada that apply there. The courts of Ontario have jurisdiction over any dispute about it.',
    ],
  },
];

/** The Student/Parent Agreement (spec part 1 §1, §2 terms acceptance), version CURRENT_TERMS_VERSION. */
export function StudentParentAgreement({ className, headingLevel = 'h2' }: { className?: string; headingLevel?: 'h2' | 'h3' }) {
  const Heading = headingLevel;
  return (
    <article className={cn('space-y-5 text-sm leading-relaxed text-slate-700', className)} aria-label="Student/Parent Agreement">
      <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">
        Student/Parent Agreement · Version {CURRENT_TERMS_VERSION}
      </p>
      {sections.map((section) => (
        <section key={section.title} className="space-y-2">
          <Heading className="text-base font-semibold text-slate-900">{section.title}</Heading>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}
      <p>
        Questions about this agreement:{' '}
        <a href={`mailto:${site.supportEmail}`} className="font-medium text-brand-700 underline-offset-4 hover:underline">
          {site.supportEmail}
        </a>
        .
      </p>
    </article>
  );
}

/** A link-styled button that opens the agreement in a dialog. */
export function AgreementDialog({ triggerLabel }: { triggerLabel: string }) {
  return (
    <Dialog>
      <DialogTrigger className="rounded-sm font-medium text-brand-700 underline underline-offset-4 hover:text-brand-900">
        {triggerLabel}
      </DialogTrigger>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Student/Parent Agreement</DialogTitle>
          <DialogDescription>The terms you accept when you create a {site.name} account.</DialogDescription>
        </DialogHeader>
        <StudentParentAgreement headingLevel="h3" />
      </DialogContent>
    </Dialog>
  );
}
