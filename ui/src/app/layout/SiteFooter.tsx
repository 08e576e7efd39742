import { Link } from '@tanstack/react-router';
import { Clock, Mail, MapPin } from 'lucide-react';
import { site } from '../site.ts';
import { AppLink } from './AppLink.tsx';
import { Logo } from './Logo.tsx';
import { primaryNav } from './navigation.ts';

const footerLink = 'rounded-sm text-sm text-slate-300 transition-colors hover:text-white hover:underline underline-offset-4';

export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="bg-brand-950 text-slate-200">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-2 lg:grid-cols-4 lg:px-8">
        <div className="space-y-4">
          <Link to="/" className="inline-block rounded-md" aria-label="Topmark home">
            <Logo inverse />
          </Link>
          <p className="max-w-xs text-sm leading-relaxed text-slate-300">
            Personalised, long-term online tutoring that builds independent problem solvers. One-on-one sessions with vetted tutors,
            evenings and weekends.
          </p>
        </div>

        <nav aria-label="Footer" className="md:col-span-1 lg:col-span-2">
          <div className="grid grid-cols-2 gap-8">
            <div>
              <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Explore</h2>
              <ul className="mt-4 space-y-3">
                {primaryNav.map((item) => (
                  <li key={item.to}>
                    <Link to={item.to} className={footerLink}>
                      {item.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
            <div>
              <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Accounts</h2>
              <ul className="mt-4 space-y-3">
                <li>
                  <AppLink to="/login" className={footerLink}>
                    Student Login
                  </AppLink>
                </li>
                <li>
                  <AppLink to="/login" className={footerLink}>
                    Parent Login
                  </AppLink>
                </li>
                <li>
                  <AppLink to="/tutor-login" className={footerLink}>
                    Tutor Login
                  </AppLink>
                </li>
                <li>
                  <AppLink to="/tutors" className={footerLink}>
                    Meet Our Tutors
                  </AppLink>
                </li>
              </ul>
            </div>
          </div>
        </nav>

        <div>
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Support</h2>
          <ul className="mt-4 space-y-3 text-sm text-slate-300">
            <li className="flex gap-2">
              <Mail className="mt-0.5 size-4 shrink-0 text-brand-300" aria-hidden="true" />
              <a href={`mailto:${site.supportEmail}`} className={footerLink}>
                {site.supportEmail}
              </a>
            </li>
            <li className="flex gap-2">
              <Clock className="mt-0.5 size-4 shrink-0 text-brand-300" aria-hidden="true" />
              <span>
                {site.supportHours}
                <br />
                {site.replyPromise}
              </span>
            </li>
            <li className="flex gap-2">
              <MapPin className="mt-0.5 size-4 shrink-0 text-brand-300" aria-hidden="true" />
              <span>Proudly based in {site.location}</span>
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t border-white/10">
        <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-6 text-xs text-slate-400 sm:flex-row sm:items-center sm:justify-between sm:px-6 lg:px-8">
          <p>
            © {year} Topmark. All rights reserved. Topmark is operated in {site.location}.
          </p>
          <p>All sessions are online. All purchases are final and non-refundable except where law requires.</p>
        </div>
      </div>
    </footer>
  );
}
