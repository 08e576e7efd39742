import { Link } from '@tanstack/react-router';
import { ArrowLeft, SearchX } from 'lucide-react';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { buttonVariants } from '../../components/ui/button.tsx';

/** Shown for any path the router does not know (spec part 1 §2). */
export function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  return (
    <section className="flex min-h-[60vh] items-center bg-gradient-to-b from-brand-50 to-white px-4 py-20">
      <div className="mx-auto max-w-xl text-center">
        <span className="inline-flex size-14 items-center justify-center rounded-2xl bg-white text-brand-700 shadow-sm ring-1 ring-border">
          <SearchX className="size-7" aria-hidden="true" />
        </span>
        <h1 className="mt-6 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">404 Page Not Found</h1>
        <p className="mt-4 text-lg leading-relaxed text-slate-600">
          The page you are looking for does not exist or has moved. Check the address, or head back to the home page.
        </p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to="/" className={buttonVariants({ size: 'lg' })}>
            <ArrowLeft aria-hidden="true" />
            Back to home
          </Link>
          <Link to="/contact" className={buttonVariants({ variant: 'outline', size: 'lg' })}>
            Contact support
          </Link>
        </div>
      </div>
    </section>
  );
}
