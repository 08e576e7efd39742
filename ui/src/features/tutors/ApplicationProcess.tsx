import { Link } from '@tanstack/react-router';
import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { site } from '../../app/site.ts';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';

/** The suggested e-mails of the Application Process panel (spec part 2 §2). */
function templates(origin: string) {
  return [
    {
      id: 'approval',
      title: 'Approval',
      text: `Subject: Your ${site.name} tutor application is approved

Hi [first name],

Good news: your application to tutor with ${site.name} has been approved.

Sign in with the same Google account at ${origin}/tutor-login. At that first sign-in you will set up your profile, the subjects and grade levels you teach, your weekly availability and your calendar; it takes about 10-15 minutes. Then your tutor dashboard is ready.

Welcome aboard,
The ${site.name} team`,
    },
    {
      id: 'information',
      title: 'Requesting information',
      text: `Subject: Your ${site.name} tutor application: documents needed

Hi [first name],

Thank you for applying to tutor with ${site.name}. To review your application we need:

- your resume
- an unofficial transcript

Please reply to this email with both attached. We review applications within 2-5 business days of receiving them.

Thank you,
The ${site.name} team`,
    },
  ] as const;
}

const STEPS = [
  <>
    Tutors sign up with Google at{' '}
    <Link to="/tutor-signup" className="font-medium text-brand-700 underline-offset-4 hover:underline">
      /tutor-signup
    </Link>
    .
  </>,
  <>They see the applicant page, which tells them to email their resume.</>,
  <>You review the application here and approve it (or deny it).</>,
  <>At their next sign-in, approved tutors go through onboarding: profile, subjects, availability and calendar.</>,
  <>Then they reach the tutor dashboard.</>,
];

/** How a tutor gets from sign-up to the dashboard, and two e-mails to copy. */
export function ApplicationProcess() {
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  return (
    <section aria-labelledby="process-heading" className="rounded-[var(--radius-card)] border border-border bg-white p-5 shadow-sm sm:p-6">
      <h2 id="process-heading" className="text-lg font-semibold text-slate-900">
        Application Process
      </h2>
      <ol className="mt-4 space-y-3">
        {STEPS.map((step, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
          <li key={index} className="flex gap-3 text-sm text-slate-700">
            <span
              aria-hidden="true"
              className="inline-flex size-6 shrink-0 items-center justify-center rounded-full bg-brand-50 text-xs font-semibold text-brand-800"
            >
              {index + 1}
            </span>
            <span className="pt-0.5">{step}</span>
          </li>
        ))}
      </ol>

      <h3 className="mt-8 text-base font-semibold text-slate-900">Suggested email templates</h3>
      <div className="mt-3 grid gap-4 lg:grid-cols-2">
        {templates(origin).map((template) => (
          <EmailTemplate key={template.id} id={template.id} title={template.title} text={template.text} />
        ))}
      </div>
    </section>
  );
}

function EmailTemplate({ id, title, text }: { id: string; title: string; text: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      toast({ title: 'Copied', description: `The ${title.toLowerCase()} template is on your clipboard.`, variant: 'success' });
    } catch {
      toast({ title: 'Error', description: 'Could not copy: select the text and copy it instead.', variant: 'destructive' });
    }
  };
  return (
    <div className="flex min-w-0 flex-col rounded-md border border-border">
      <div className="flex items-center justify-between gap-2 border-b border-border bg-slate-50 px-4 py-2">
        <h4 id={`template-${id}`} className="text-sm font-semibold text-slate-900">
          {title}
        </h4>
        <Button size="sm" variant="outline" onClick={() => void copy()}>
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {copied ? 'Copied' : 'Copy'}
          <span className="sr-only"> the {title.toLowerCase()} template</span>
        </Button>
      </div>
      <pre className="flex-1 p-4 font-sans text-sm whitespace-pre-wrap text-slate-700">{text}</pre>
    </div>
  );
}
