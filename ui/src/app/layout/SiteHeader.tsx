import { Link, useRouterState } from '@tanstack/react-router';
import { Menu, X } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { buttonVariants } from '../../components/ui/button.tsx';
import { cn } from '../../lib/utils.ts';
import { AppLink } from './AppLink.tsx';
import { Logo } from './Logo.tsx';
import { loginNav, primaryNav } from './navigation.ts';

const desktopLink =
  'rounded-md px-3 py-2 text-sm font-medium text-slate-700 transition-colors hover:bg-brand-50 hover:text-brand-800 ' +
  'aria-[current=page]:text-brand-800 aria-[current=page]:bg-brand-50';

const mobileLink =
  'block rounded-md px-3 py-3 text-base font-medium text-slate-800 hover:bg-brand-50 hover:text-brand-800 ' +
  'aria-[current=page]:bg-brand-50 aria-[current=page]:text-brand-800';

export function SiteHeader() {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const pathname = useRouterState({ select: (s) => s.location.pathname });

  // Close the mobile menu whenever the page changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path change by design
  useEffect(() => {
    setOpen(false);
  }, [pathname]);

  // Escape closes the mobile menu.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Link to="/" className="rounded-md" aria-label="Topmark home">
          <Logo />
        </Link>

        <nav aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {primaryNav.map((item) => (
              <li key={item.to}>
                <Link to={item.to} className={desktopLink} activeOptions={{ exact: item.to === '/' }}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <div className="hidden items-center gap-2 lg:flex">
          <AppLink to="/login" className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
            Student Login
          </AppLink>
          <AppLink to="/tutor-login" className={buttonVariants({ variant: 'default', size: 'sm' })}>
            Tutor Login
          </AppLink>
        </div>

        <button
          type="button"
          className={cn(buttonVariants({ variant: 'ghost', size: 'icon' }), 'lg:hidden')}
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpen((v) => !v)}
        >
          {open ? <X className="size-6!" aria-hidden="true" /> : <Menu className="size-6!" aria-hidden="true" />}
          <span className="sr-only">{open ? 'Close menu' : 'Open menu'}</span>
        </button>
      </div>

      <div id={menuId} hidden={!open} className="border-t border-border bg-white lg:hidden">
        <nav aria-label="Mobile" className="mx-auto max-w-7xl px-4 py-3 sm:px-6">
          <ul className="grid gap-1">
            {primaryNav.map((item) => (
              <li key={item.to}>
                <Link to={item.to} className={mobileLink} activeOptions={{ exact: item.to === '/' }} onClick={() => setOpen(false)}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
          <div className="mt-3 grid gap-2 border-t border-border pt-3 sm:grid-cols-2">
            {loginNav.map((item, i) => (
              <AppLink
                key={item.to}
                to={item.to}
                onClick={() => setOpen(false)}
                className={buttonVariants({ variant: i === 0 ? 'outline' : 'default', size: 'lg', className: 'w-full' })}
              >
                {item.label}
              </AppLink>
            ))}
          </div>
        </nav>
      </div>
    </header>
  );
}
