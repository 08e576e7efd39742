import { expect, test } from '@playwright/test';

/** The security headers reach the browser, and the built UI runs under its CSP without a violation. */
test('the built UI runs under its Content-Security-Policy, and no page can be framed', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto('/');
  const headers = response?.headers() ?? {};
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBeTruthy();
  // Visit the pages that load the most (forms, the pricing calculator, the sign-in page) and sign-up.
  for (const path of ['/pricing', '/contact', '/login', '/login?tab=signup']) {
    await page.goto(path);
    await expect(page.locator('main, [role="main"], body').first()).toBeVisible();
  }
  expect(violations).toEqual([]);

  // A page of ours inside a frame is refused by the browser (frame-ancestors 'none').
  const login = new URL('/login', page.url()).href;
  // A blank page of no origin of ours (our CSP would forbid the test's own inline handler).
  await page.goto('about:blank');
  await page.setContent(`<iframe id="f" onload="document.body.dataset.framed = 'loaded'" src="${login}"></iframe>`);
  // The frame's load event fires for the refused page too: only then is "nothing rendered" a finding.
  await expect(page.locator('body')).toHaveAttribute('data-framed', 'loaded');
  await expect(page.frameLocator('#f').getByRole('tab', { name: /sign in/i })).toHaveCount(0);
});

test('a write from another origin is refused', async ({ request, baseURL }) => {
  const foreign = await request.post('/api/contact', {
    headers: { origin: 'https://evil.example' },
    data: { name: 'A', email: 'a@example.com', subject: 's', message: 'm' },
  });
  expect(foreign.status()).toBe(403);
  const same = await request.post('/api/contact', {
    headers: { origin: new URL(baseURL as string).origin },
    data: { name: 'Ann', email: 'ann@example.com', subject: 'Hello', message: 'Same-origin write' },
  });
  expect(same.status()).toBe(201);
});
