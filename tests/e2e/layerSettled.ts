import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Waits until a just-opened Radix dialog listens for Escape. Radix adds its Escape listener only after
 * the layer has registered and re-rendered as the highest layer, a few renders after the dialog is
 * visible; an Escape pressed in between is ignored (CI once caught exactly that). Focus moving into
 * the dialog and two frames passing cover those renders.
 */
export async function layerSettled(page: Page, dialog: Locator) {
  // Focus on an element inside the dialog, or on the dialog itself (when nothing in it can take focus).
  const focusInside = dialog.locator(':focus').or(dialog.page().locator('[role="dialog"]:focus, [role="alertdialog"]:focus'));
  await expect(focusInside).toHaveCount(1);
  await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
}
