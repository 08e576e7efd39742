import { request as httpRequest } from 'node:http';
import { expect, type Page, test } from '@playwright/test';
import { demoAccount } from './demoAccounts.ts';

/**
 * Lazy UI areas (issue 25 item 8, issue 26 item 4): the first load of `/` fetches at most 150 kB of
 * gzip JavaScript, and the areas (student, parent, tutor, checkout, console) are chunks fetched on
 * demand (ui/src/app/lazyPages.ts).
 */

const FIRST_LOAD_LIMIT = 150_000;
/** /login's first load as it stands (the sign-up form and the password reset already lazy): see its test. */
const LOGIN_FIRST_LOAD_GUARD = 200_000;

/** The JavaScript files the page fetches from now on, by path, in order. */
function scriptsFetched(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (req) => {
    const { pathname } = new URL(req.url());
    if (pathname.endsWith('.js') && !paths.includes(pathname)) paths.push(pathname);
  });
  return paths;
}

/**
 * The bytes the server sends for `path` to a client that accepts gzip only: the gzip size of the
 * file as served (read from the socket, not decompressed), with its Content-Encoding.
 */
function gzipBytes(baseURL: string, path: string): Promise<{ bytes: number; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, baseURL), { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ bytes, encoding: res.headers['content-encoding'] }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const areaChunk = /\/assets\/(StudentDashboard|ParentDashboard|TutorDashboardPage|CheckoutPage|AdminPage)-[^/]+\.js$/;

test('the first load of / stays within 150 kB of gzip JavaScript; the student area loads on demand after sign-in', async ({
  page,
  baseURL,
}) => {
  const scripts = scriptsFetched(page);
  await page.goto('/', { waitUntil: 'networkidle' });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  const firstLoad = [...scripts];
  const sizes = await Promise.all(firstLoad.map((path) => gzipBytes(baseURL ?? '', path)));
  // The build compresses files from 1 kB (ui/vite.config.ts); smaller ones are counted as sent.
  for (const [i, size] of sizes.entries()) {
    if (size.bytes > 1024) expect(size.encoding, `${firstLoad[i]} is sent gzip-compressed`).toBe('gzip');
  }
  const total = sizes.reduce((sum, size) => sum + size.bytes, 0);
  console.log(`first load of /: ${firstLoad.length} scripts, ${(total / 1000).toFixed(1)} kB gzip`);
  expect(firstLoad.length).toBeGreaterThan(0);
  expect(total, `gzip JavaScript of the first load: ${firstLoad.join(', ')}`).toBeLessThanOrEqual(FIRST_LOAD_LIMIT);
  // None of the areas, nor the libraries only they use, come with the public site.
  expect(firstLoad.filter((path) => areaChunk.test(path))).toEqual([]);

  // To /login through the header's link (a client-side navigation), then signing in as the demo student.
  await page.getByRole('link', { name: 'Student Login' }).first().click();
  await expect(page).toHaveURL(/\/login$/);
  expect(scripts.some((path) => /\/assets\/StudentDashboard-/.test(path))).toBe(false);
  const student = demoAccount('student');
  await page.getByLabel('Username or Email').fill(student.username);
  await page.getByLabel('Password', { exact: true }).fill(student.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/student$/, { timeout: 15_000 });
  // The student area's chunk came now, on demand, and its dashboard works.
  expect(scripts.filter((path) => /\/assets\/StudentDashboard-[^/]+\.js$/.test(path))).toHaveLength(1);
  await expect(page.getByRole('heading', { name: 'My Courses' })).toBeVisible();
  // The console's and checkout's chunks still did not come.
  expect(scripts.filter((path) => /\/assets\/(AdminPage|CheckoutPage)-/.test(path))).toEqual([]);
});

test('a page whose chunk cannot be fetched (a deploy replaced it) reloads once, then offers a reload instead of a blank page', async ({
  page,
}) => {
  await page.goto('/', { waitUntil: 'networkidle' });
  let blocked = 0;
  await page.route(/\/assets\/AboutPage-[^/]+\.js$/, (route) => {
    blocked += 1;
    return route.fulfill({ status: 404, contentType: 'text/plain', body: 'gone' });
  });
  await page.getByRole('link', { name: 'About Us' }).first().click();
  await expect(page.getByRole('heading', { name: 'This page could not be loaded' })).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/about$/);
  // Tried on the navigation and again after the one automatic reload.
  expect(blocked).toBeGreaterThanOrEqual(2);

  // The chunk is back (the new deploy's page): Reload page shows About.
  await page.unroute(/\/assets\/AboutPage-[^/]+\.js$/);
  await page.getByRole('button', { name: 'Reload page' }).click();
  await expect(page.getByRole('heading', { name: 'This page could not be loaded' })).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/about$/);
});

test('the first load of /login carries neither Sign Up nor the password reset, which load when opened', async ({ page, baseURL }) => {
  const scripts = scriptsFetched(page);
  await page.goto('/login', { waitUntil: 'networkidle' });
  await expect(page.getByRole('heading', { level: 1, name: 'Student & Parent Login' })).toBeVisible();
  const firstLoad = [...scripts];
  const sizes = await Promise.all(firstLoad.map((path) => gzipBytes(baseURL ?? '', path)));
  const total = sizes.reduce((sum, size) => sum + size.bytes, 0);
  console.log(`first load of /login: ${firstLoad.length} scripts, ${(total / 1000).toFixed(1)} kB gzip`);
  // Not yet within the 150 kB of issue 26: zod (about 38 kB gzip) comes with the sign-in form and the
  // account API's answers. A guard at today's figure (194.5 kB) keeps it from growing meanwhile.
  expect(total, `gzip JavaScript of the first load: ${firstLoad.join(', ')}`).toBeLessThanOrEqual(LOGIN_FIRST_LOAD_GUARD);
  expect(firstLoad.filter((path) => /\/assets\/(SignUpForm|ForgotPassword)-/.test(path))).toEqual([]);

  // Both still work: the forms arrive when their tab or link is opened.
  await page.getByRole('button', { name: /forgot/i }).click();
  await expect(page.getByRole('button', { name: /send|reset/i }).first()).toBeVisible();
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await expect(page.getByRole('button', { name: /create|sign up/i }).last()).toBeVisible();
  expect(scripts.some((path) => /\/assets\/SignUpForm-/.test(path))).toBe(true);
});
