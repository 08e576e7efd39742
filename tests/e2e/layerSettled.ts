import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Waits until a just-opened Radix dialog listens for Escape. Radix adds its Escape listener only after
 * the layer has registered and re-rendered as the highest layer, a few renders after the dialog is
 * visible; an Escape pressed in between is ignored (CI once caught exactly that). Focus moving into
 * the dialog and two frames passing cover those renders.
 */
export async function layerSettled(page: Page, dialog: Locator) {
  await expect.poll(() => dialog.evaluate('(el) => el.contains(document.activeElement)')).toBe(true);
  await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
}
