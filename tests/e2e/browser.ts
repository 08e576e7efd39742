import type { Page } from '@playwright/test';

/**
 * How many CSS pixels the page is wider than the viewport (0 when nothing overflows). The
 * expression runs in the browser; it is a string because the tests are type-checked with Node's
 * libraries only (tsconfig.server.json has no DOM).
 */
export async function horizontalOverflow(page: Page): Promise<number> {
  return Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
}
