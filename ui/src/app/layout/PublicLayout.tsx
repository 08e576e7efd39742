import { Outlet } from '@tanstack/react-router';
import type * as React from 'react';
import { SiteFooter } from './SiteFooter.tsx';
import { SiteHeader } from './SiteHeader.tsx';

/** Header, main landmark and footer around public pages. */
export function PublicShell({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:text-brand-800 focus:shadow"
      >
        Skip to content
      </a>
      <SiteHeader />
      {/* At least a screen tall: the footer starts below the fold, so a page whose code arrives
          after the shell has painted (app/lazyPages.ts) does not push a visible footer down (layout shift). */}
      <main id="main" tabIndex={-1} className="min-h-dvh flex-1 focus:outline-none">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}

/** Layout route component for the public pages. */
export function PublicLayout() {
  return (
    <PublicShell>
      <Outlet />
    </PublicShell>
  );
}
