// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { AlertDialog, AlertDialogAction, AlertDialogCancel, AlertDialogContent, AlertDialogTitle } from './alert-dialog.tsx';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from './dialog.tsx';

afterEach(cleanup);

/** A dialog opened by state from an ordinary button, as most of ours are (no DialogTrigger). */
function StateOpened() {
  const [open, setOpen] = useState(false);
  return (
    <main>
      <button type="button" onClick={() => setOpen(true)}>
        Help
      </button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogTitle>Contact support</DialogTitle>
          <DialogDescription>How can we help?</DialogDescription>
          <DialogClose>Cancel</DialogClose>
        </DialogContent>
      </Dialog>
    </main>
  );
}

/** A row whose confirmed deletion removes the button that opened the confirmation. */
function DeletableRows() {
  const [rows, setRows] = useState(['Calculus', 'Physics']);
  const [asking, setAsking] = useState<string | null>(null);
  return (
    <main>
      <section>
        <h2>Your courses</h2>
        <ul>
          {rows.map((row) => (
            <li key={row}>
              <button type="button" onClick={() => setAsking(row)}>
                Remove {row}
              </button>
            </li>
          ))}
        </ul>
      </section>
      <AlertDialog open={asking !== null} onOpenChange={(next) => !next && setAsking(null)}>
        <AlertDialogContent aria-describedby={undefined}>
          <AlertDialogTitle>Remove {asking}?</AlertDialogTitle>
          <AlertDialogCancel>Keep</AlertDialogCancel>
          <AlertDialogAction onClick={() => setRows((all) => all.filter((r) => r !== asking))}>Remove</AlertDialogAction>
        </AlertDialogContent>
      </AlertDialog>
    </main>
  );
}

function openWithKeyboard(name: string) {
  const opener = screen.getByRole('button', { name });
  opener.focus();
  fireEvent.click(opener);
  return opener;
}

describe('focus return of the dialog primitives', () => {
  it('gives focus back to the button that opened a dialog without a trigger, on Escape and on Cancel', async () => {
    render(<StateOpened />);
    const opener = openWithKeyboard('Help');
    await screen.findByRole('dialog', { name: 'Contact support' });
    expect(document.activeElement).not.toBe(opener);
    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));

    openWithKeyboard('Help');
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('gives focus to the list heading when the confirmed action removed the opener, never to <body>', async () => {
    render(<DeletableRows />);
    const keep = openWithKeyboard('Remove Physics');
    fireEvent.click(await screen.findByRole('button', { name: 'Keep' }));
    await waitFor(() => expect(document.activeElement).toBe(keep));

    openWithKeyboard('Remove Calculus');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove Calculus' })).toBeNull());
    const heading = screen.getByRole('heading', { name: 'Your courses' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    // Focusable by script only: it does not join the Tab order.
    expect(heading.getAttribute('tabindex')).toBe('-1');
  });
});
