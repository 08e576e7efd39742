import { useRef } from 'react';

/** How long after a dialog closes its opener is watched: a confirmed deletion removes the row once the list is read again. */
const WATCH_MS = 4000;

interface Opener {
  element: HTMLElement;
  /** The opener's ancestors at the moment it opened the dialog, nearest first: where a successor is looked for. */
  ancestors: HTMLElement[];
}

/** Rendered and not hidden by CSS (where the browser can tell: jsdom cannot, and counts everything as shown). */
function shown(element: HTMLElement): boolean {
  return typeof element.checkVisibility === 'function' ? element.checkVisibility() : true;
}

function canTakeFocus(element: HTMLElement): boolean {
  if (!element.isConnected) return false;
  if ((element as HTMLButtonElement).disabled) return false;
  if (element.closest('[inert], [hidden]')) return false;
  return shown(element);
}

/**
 * Where focus goes when the opener is gone (a deleted row, a completed session's button): the
 * first heading of the nearest surviving ancestor (the list's heading), else the page's main
 * region. Neither is focusable by default, so it becomes focusable by script only (tabindex -1).
 */
function successor(ancestors: HTMLElement[]): HTMLElement | null {
  for (const ancestor of ancestors) {
    if (!ancestor.isConnected || ancestor === document.body) continue;
    const heading = ancestor.querySelector<HTMLElement>('h1, h2, h3, h4, h5, h6, [role="heading"]');
    if (heading && shown(heading)) return heading;
  }
  return document.querySelector<HTMLElement>('main') ?? null;
}

function focusElement(element: HTMLElement) {
  if (!element.matches('a[href], button, input, select, textarea, [tabindex]')) element.setAttribute('tabindex', '-1');
  element.focus();
}

function restore(opener: Opener) {
  if (canTakeFocus(opener.element)) {
    opener.element.focus();
    watch(opener);
    return;
  }
  const next = successor(opener.ancestors);
  if (next) focusElement(next);
}

/**
 * If the opener leaves the page, or is disabled (a rebuild running), shortly after focus went back
 * to it, the browser drops focus to <body>: its successor takes it then.
 */
function watch(opener: Opener) {
  const observer = new MutationObserver(() => {
    if (opener.element.isConnected && !(opener.element as HTMLButtonElement).disabled) return;
    observer.disconnect();
    const active = document.activeElement;
    if (active === null || active === document.body || active === opener.element) {
      const next = successor(opener.ancestors);
      if (next) focusElement(next);
    }
  });
  observer.observe(document.body, { childList: true, subtree: true });
  observer.observe(opener.element, { attributes: true, attributeFilter: ['disabled'] });
  window.setTimeout(() => observer.disconnect(), WATCH_MS);
}

/**
 * Focus return for the dialog primitives (Dialog, AlertDialog). Radix gives focus back to a
 * DialogTrigger, but most of our dialogs are opened by state from an ordinary button (a row's
 * Reschedule, a menu), so on close focus fell to <body> and keyboard and screen-reader users lost
 * their place. The element focused when the dialog opened is remembered and focused again on
 * close (Escape, Cancel, the close button or a confirming action); if it is gone or disabled, the
 * nearest heading above where it was. A caller's own onCloseAutoFocus that calls
 * preventDefault() still decides for itself.
 */
export function useReturnFocus({
  onOpenAutoFocus,
  onCloseAutoFocus,
}: {
  onOpenAutoFocus?: (event: Event) => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const opener = useRef<Opener | null>(null);
  return {
    onOpenAutoFocus: (event: Event) => {
      // Radix asks before it moves focus into the dialog: the active element is still the opener.
      const active = document.activeElement;
      if (active instanceof HTMLElement && active !== document.body) {
        const ancestors: HTMLElement[] = [];
        for (let node = active.parentElement; node && node !== document.body; node = node.parentElement) ancestors.push(node);
        opener.current = { element: active, ancestors };
      } else {
        opener.current = null;
      }
      onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus: (event: Event) => {
      onCloseAutoFocus?.(event);
      const from = opener.current;
      opener.current = null;
      // Without a remembered opener (Safari does not focus a clicked button) Radix's own default stays: its trigger.
      if (event.defaultPrevented || !from) return;
      event.preventDefault();
      restore(from);
    },
  };
}
