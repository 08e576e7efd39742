import { expect, type Page, test } from '@playwright/test';
import { mailedCode, signIn, unique } from './helpers.ts';

async function signUp(page: Page, n: string) {
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByLabel('Username', { exact: true }).fill(`e2e${n}`);
  await page.getByLabel('Email', { exact: true }).fill(`e2e${n}@example.com`);
  await page.getByLabel('First Name').fill('Emma');
  await page.getByLabel('Last Name').fill('Tester');
  await page
    .getByLabel('Grade')
    .selectOption('Grade 11')
    .catch(async () => {
      await page.getByLabel('Grade').click();
      await page.getByRole('option', { name: 'Grade 11' }).click();
    });
  await page.getByLabel('Password', { exact: true }).fill('secret123');
  await page.getByLabel('Confirm Password').fill('secret123');
  await page.getByLabel(/I accept the terms and conditions/).check();
  await page.getByRole('button', { name: 'Create Account' }).click();
}

test('sign up, verify with the mailed code, sign in and land on /student', async ({ page, request }) => {
  const n = unique();
  await signUp(page, n);
  await expect(page).toHaveURL(new RegExp(`/verify-email\\?email=e2e${n}`));
  const code = await mailedCode(request, `e2e${n}@example.com`, 'verification code');
  await page.getByLabel('Verification Code').fill(code);
  await page.getByRole('button', { name: 'Verify Email' }).click();
  await expect(page.getByText('Email verified successfully! You can now log in to your account.')).toBeVisible();
  await expect(page).toHaveURL(/\/login/, { timeout: 5000 });
  await signIn(page, `e2e${n}`, 'secret123');
  await expect(page).toHaveURL(/\/student/);
  await expect(page.getByText(/Welcome, Emma/)).toBeVisible();
});

test('an unverified sign-in is sent to /verify-email', async ({ page }) => {
  const n = unique();
  await signUp(page, n);
  await expect(page).toHaveURL(/\/verify-email/);
  await signIn(page, `e2e${n}`, 'secret123');
  await expect(page).toHaveURL(new RegExp(`/verify-email\\?email=e2e${n}`));
  await expect(page.getByText('Email verification required').first()).toBeVisible();
});

test('a wrong password shows the failure toast and stays on /login', async ({ page }) => {
  await signIn(page, 'e2e.admin', 'not-the-password');
  await expect(page.getByText('Login failed').first()).toBeVisible();
  await expect(page.getByText('Invalid username or password').first()).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test('password reset with the mailed code, then sign in with the new password', async ({ page, request }) => {
  const n = unique();
  await signUp(page, n);
  const verifyCode = await mailedCode(request, `e2e${n}@example.com`, 'verification code');
  await request.post('/api/verify-email', { data: { email: `e2e${n}@example.com`, code: verifyCode } });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await page.getByLabel('Email').fill(`e2e${n}@example.com`);
  await page.getByRole('button', { name: 'Send Reset Code' }).click();
  await expect(page.getByText('Reset Code Sent').first()).toBeVisible();
  const code = await mailedCode(request, `e2e${n}@example.com`, 'password reset code');
  await page.getByLabel('Reset Code').fill(code);
  await page.getByLabel('New Password', { exact: true }).fill('brand-new-1');
  await page.getByLabel('Confirm New Password').fill('brand-new-1');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Password Reset Successful').first()).toBeVisible();
  await signIn(page, `e2e${n}`, 'brand-new-1');
  await expect(page).toHaveURL(/\/student/);
});

test('a Google-created account must accept the terms before reaching its dashboard', async ({ page }) => {
  const n = unique();
  await page.goto('/api/auth/google?userType=student');
  await page.getByLabel('Email').fill(`google${n}@example.com`);
  await page.getByLabel(/First name/i).fill('Gail');
  await page.getByLabel(/Last name/i).fill('Google');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/accept-terms/);
  const accept = page.getByRole('button', { name: 'Accept and Continue' });
  await expect(accept).toBeDisabled();
  await page.getByRole('checkbox').check();
  await accept.click();
  await expect(page.getByText('Terms Accepted').first()).toBeVisible();
  await expect(page).toHaveURL(/\/student/, { timeout: 5000 });
});

test('admin sign-in lands on /admin with the success toast', async ({ page }) => {
  await page.goto('/admin-login');
  await page.getByLabel('Username').fill('e2e.admin');
  await page.getByLabel('Password', { exact: true }).fill('admin-pass-1');
  await page.getByRole('button', { name: /Sign In|Log In|Login/ }).click();
  await expect(page.getByText('Login successful').first()).toBeVisible();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByText('Admin', { exact: true }).first()).toBeVisible();
});

test('protected pages send anonymous visitors to their sign-in page: families to /login, staff to /admin-login', async ({ page }) => {
  await page.goto('/student');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin-login$/);
});

test('the sign-in form tabs from the username to the password, to Sign In, then to "Forgot password?"', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username or Email').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Forgot password?' })).toBeFocused();
});
