import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { horizontalOverflow } from './browser.ts';

const pages = [
  { link: 'How It Works', path: '/how-it-works' },
  { link: 'Pricing', path: '/pricing' },
  { link: 'Subjects', path: '/subjects' },
  { link: 'About Us', path: '/about' },
  { link: 'Contact', path: '/contact' },
];

test('the home page renders its hero, subjects and prices', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Get Started' }).first()).toHaveAttribute('href', '/login');
  for (const subject of ['Mathematics', 'Physics', 'Chemistry', 'Biology', 'English', 'Computer Science', 'Accounting', 'Finance']) {
    await expect(page.getByText(subject, { exact: true }).first()).toBeVisible();
  }
  await expect(page.getByText('$60').first()).toBeVisible();
  await expect(page.getByText('$90').first()).toBeVisible();
});

test('the navigation reaches every public page', async ({ page }) => {
  await page.goto('/');
  const nav = page.getByRole('navigation').first();
  for (const { link, path } of pages) {
    await nav.getByRole('link', { name: link, exact: true }).click();
    await expect(page).toHaveURL(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText('404 Page Not Found')).toHaveCount(0);
  }
  await nav.getByRole('link', { name: 'Home', exact: true }).click();
  await expect(page).toHaveURL('/');
});

test('the footer links Parent Login and Meet Our Tutors', async ({ page }) => {
  await page.goto('/about');
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: 'Parent Login' })).toHaveAttribute('href', '/login');
  await expect(footer.getByRole('link', { name: 'Meet Our Tutors' })).toHaveAttribute('href', '/tutors');
});

test('the pricing calculator uses the pricing policy', async ({ page }) => {
  await page.goto('/pricing');
  await expect(page.getByTestId('price-grade_11_12-weekly_2')).toContainText('$570');
  await expect(page.getByTestId('price-grade_10_under-weekly_1')).toContainText('$240');
  await expect(page.getByTestId('price-university-weekly_3')).toContainText('$972');
});

test('an unknown path shows the not-found page, with HTTP 404', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByText('404 Page Not Found')).toBeVisible();
});

test('the contact form shows the validation messages for an empty submit and sends nothing', async ({ page }) => {
  let posted = false;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/contact')) posted = true;
  });
  await page.goto('/contact');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Full name is required')).toBeVisible();
  await expect(page.getByText('Subject is required')).toBeVisible();
  await expect(page.getByText('Message is required')).toBeVisible();
  expect(posted).toBe(false);
});

test('a valid contact message shows the success alert and clears the form', async ({ page, request }) => {
  await page.goto('/contact');
  await page.getByRole('textbox', { name: 'Full Name', exact: true }).fill('Ann Lee');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill('ann.e2e@example.com');
  await page.getByRole('textbox', { name: 'Subject', exact: true }).fill('Calculus tutoring');
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Do you have evening sessions for grade 12 calculus?');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText(/Thank you for your message/)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Full Name', exact: true })).toHaveValue('');
  await expect(page.getByRole('textbox', { name: 'Message', exact: true })).toHaveValue('');
  const health = await request.get('/api/health');
  expect(health.ok()).toBe(true);
});

test('a failed send shows the error alert', async ({ page }) => {
  await page.route('**/api/contact', (route) =>
    route.fulfill({ status: 500, body: '{"message":"down"}', contentType: 'application/json' }),
  );
  await page.goto('/contact');
  await page.getByRole('textbox', { name: 'Full Name', exact: true }).fill('Ann Lee');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill('ann.e2e@example.com');
  await page.getByRole('textbox', { name: 'Subject', exact: true }).fill('Calculus');
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Hello');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText(/There was an error sending your message/)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Full Name', exact: true })).toHaveValue('Ann Lee');
});

test('public pages have no serious accessibility violations', async ({ page }) => {
  for (const path of ['/', '/pricing', '/contact']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${path}: ${v.id}`)).toEqual([]);
  }
});

test('the site works on a 375 px phone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/pricing');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const overflow = await horizontalOverflow(page);
  expect(overflow).toBeLessThanOrEqual(0);
});
