import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * How many CSS pixels the page is wider than the viewport (0 when nothing overflows). The
 * expression runs in the browser; it is a string because the tests are type-checked with Node's
 * libraries only (tsconfig.server.json has no DOM).
 */
export async function horizontalOverflow(page: Page): Promise<number> {
  return Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
}

/**
 * Serious or critical axe violations (WCAG 2 A/AA) on the page as it is now, each named with
 * where it was checked and the elements. CSS transitions are let finish first: colours mid-fade
 * (a slot just chosen turning to its selected colours) are not what a user reads.
 */
export async function seriousViolations(page: Page, where: string): Promise<string[]> {
  // (Evaluated as text: the tests compile without the DOM's types.)
  await page.evaluate(
    'Promise.all(document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity).map((a) => a.finished.catch(() => undefined))).then(() => undefined)',
  );
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}
