import type { ErrorComponentProps } from '@tanstack/react-router';
import { CircleAlert, RotateCw } from 'lucide-react';
import { Button } from '../components/ui/button.tsx';
import { PageSpinner } from './auth/PageSpinner.tsx';

/**
 * What a route shows while its page's chunk (app/lazyPages.ts) loads; a preloaded page (a link
 * hovered or focused) is already there and shows none.
 */
export function RoutePending() {
  return <PageSpinner label="Loading page..." />;
}

/** The messages browsers give when a dynamic import fails (Chromium, Firefox, Safari). */
const chunkLoadFailure =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed/i;

/**
 * A page that failed to load or render. A chunk that is gone after a deploy has already reloaded
 * the page once (lazyRouteComponent); if it still fails, say so and offer a reload instead of a
 * blank page.
 */
export function RouteError({ error }: ErrorComponentProps) {
  const chunkMissing = error instanceof Error && chunkLoadFailure.test(error.message);
  return (
    <div role="alert" className="mx-auto flex min-h-[50vh] max-w-md flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <CircleAlert className="size-10 text-red-600" aria-hidden="true" />
      <h1 className="font-semibold text-slate-900 text-xl">
        {chunkMissing ? 'This page could not be loaded' : 'Something went wrong on this page'}
      </h1>
      <p className="text-slate-600 text-sm">
        {chunkMissing
          ? 'Topmark may have been updated since you opened it, or the connection dropped. Reload to get the latest version.'
          : 'Reload the page to try again. If it keeps happening, contact us.'}
      </p>
      <Button onClick={() => window.location.reload()}>
        <RotateCw aria-hidden="true" />
        Reload page
      </Button>
    </div>
  );
}
