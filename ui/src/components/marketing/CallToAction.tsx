import { Link } from '@tanstack/react-router';
import { ArrowRight } from 'lucide-react';
import type * as React from 'react';
import { buttonVariants } from '../ui/button.tsx';

/** The indigo sign-up band used at the bottom of public pages. */
export function CallToAction({
  title = 'Ready to build a confident, independent learner?',
  body = 'Create a free account in two minutes, choose a package, and meet tutors matched to your subject and grade level. Sessions never expire, and you can change tutor at any time.',
  secondary,
}: {
  title?: string;
  body?: string;
  secondary?: React.ReactNode;
}) {
  return (
    <section aria-labelledby="cta-heading" className="bg-white px-4 py-16 sm:px-6 sm:py-20 lg:px-8">
      <div className="relative mx-auto max-w-5xl overflow-hidden rounded-3xl bg-brand-900 px-6 py-12 text-center shadow-xl sm:px-12 sm:py-16">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -bottom-32 -left-24 size-80 rounded-full bg-brand-600/40 blur-3xl"
        />
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -top-24 -right-16 size-72 rounded-full bg-emerald-400/20 blur-3xl"
        />
        <div className="relative">
          <h2 id="cta-heading" className="text-3xl font-bold tracking-tight text-balance text-white sm:text-4xl">
            {title}
          </h2>
          <p className="mx-auto mt-4 max-w-2xl text-lg leading-relaxed text-brand-100">{body}</p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Link to="/login" search={{ tab: 'signup' }} className={buttonVariants({ variant: 'inverse', size: 'lg' })}>
              Sign up free
              <ArrowRight aria-hidden="true" />
            </Link>
            {secondary}
          </div>
        </div>
      </div>
    </section>
  );
}
