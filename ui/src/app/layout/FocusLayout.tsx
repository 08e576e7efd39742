import { Link, Outlet } from '@tanstack/react-router';
import { site } from '../site.ts';
import { Logo } from './Logo.tsx';

/**
 * A quiet frame for single-task pages (terms acceptance, role selection, admin login, dev
 * mailbox): the logo linking home, the page, one line of footer. No site navigation.
 */
export function FocusLayout() {
  return (
    <div className="flex min-h-dvh flex-col bg-white">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:text-brand-800 focus:shadow"
      >
        Skip to content
      </a>
      <header className="border-b border-border bg-white">
        <div className="mx-auto flex h-16 max-w-7xl items-center px-4 sm:px-6 lg:px-8">
          <Link to="/" className="rounded-md" aria-label="Topmark home">
            <Logo />
          </Link>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <footer className="border-t border-border py-6 text-center text-xs text-slate-500">
        © {new Date().getFullYear()} {site.name} · {site.location} ·{' '}
        <a href={`mailto:${site.supportEmail}`} className="underline-offset-4 hover:underline">
          {site.supportEmail}
        </a>
      </footer>
    </div>
  );
}
