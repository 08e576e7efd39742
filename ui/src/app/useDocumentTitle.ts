import { useEffect } from 'react';
import { site } from './site.ts';

/** Sets `document.title` to "Topmark — <page>" while the page is shown. */
export function useDocumentTitle(page: string): void {
  useEffect(() => {
    document.title = `${site.name} — ${page}`;
  }, [page]);
}
