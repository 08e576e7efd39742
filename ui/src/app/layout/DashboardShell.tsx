import { Link } from '@tanstack/react-router';
import type * as React from 'react';
import { hasNotices } from '../../features/notices/api.ts';
import { NoticeBell } from '../../features/notices/NoticeBell.tsx';
import { LogoutButton } from '../auth/LogoutButton.tsx';
import { fullName, initialsOf, type User } from '../auth/types.ts';
import { Logo } from './Logo.tsx';

/**
 * The frame of a role area: a top bar with the logo, the notices' bell (students, parents and
 * tutors), the signed-in person (initials, full name and a role badge) and Logout, then the page.
 */
export function DashboardShell({ user, badge, children }: { user: User; badge?: React.ReactNode; children: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:text-brand-800 focus:shadow"
      >
        Skip to content
      </a>
      <header className="border-b border-border bg-white">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
          <Link to="/" className="rounded-md" aria-label="Topmark home">
            <Logo />
          </Link>
          <div className="flex items-center gap-3">
            {hasNotices(user.role) ? <NoticeBell timeZone={user.timezone} /> : null}
            <div className="flex items-center gap-2.5" data-testid="dashboard-user">
              <span
                aria-hidden="true"
                className="inline-flex size-9 items-center justify-center rounded-full bg-brand-700 text-sm font-semibold text-white"
              >
                {initialsOf(user)}
              </span>
              <div className="hidden flex-col leading-tight sm:flex">
                <span className="text-sm font-medium text-slate-900">{fullName(user)}</span>
                {badge ? <span className="mt-0.5">{badge}</span> : null}
              </div>
              <span className="sr-only sm:hidden">Signed in as {fullName(user)}</span>
            </div>
            <LogoutButton />
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">{children}</div>
      </main>
    </div>
  );
}

/** The top card of a role area: "Welcome, {firstName}", what the area is for, and key facts. */
export function WelcomeHeader({
  user,
  purpose,
  facts,
  badges,
  actions,
}: {
  user: User;
  purpose: React.ReactNode;
  facts: ReadonlyArray<{ label: string; value: React.ReactNode }>;
  badges?: React.ReactNode;
  actions?: React.ReactNode;
}) {
  const name = user.firstName?.trim() || user.username;
  return (
    <section aria-labelledby="welcome-heading" className="rounded-[var(--radius-card)] border border-border bg-white p-6 shadow-sm sm:p-8">
      <div className="flex flex-col gap-6 lg:flex-row lg:items-start lg:justify-between">
        <div className="max-w-2xl">
          <div className="flex flex-wrap items-center gap-2">
            <h1 id="welcome-heading" className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
              Welcome, {name}
            </h1>
            {badges}
          </div>
          <p className="mt-2 text-base leading-relaxed text-slate-600">{purpose}</p>
        </div>
        {actions ? <div className="flex shrink-0 flex-wrap gap-2">{actions}</div> : null}
      </div>
      <dl className="mt-6 grid gap-4 border-t border-border pt-6 sm:grid-cols-2 lg:grid-cols-4">
        {facts.map((fact) => (
          <div key={fact.label}>
            <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{fact.label}</dt>
            <dd className="mt-1 text-sm font-medium break-words text-slate-900">{fact.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
