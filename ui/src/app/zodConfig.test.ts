// Before zod, as in main.tsx.
import './zodConfig.ts';
import { expect, it } from 'vitest';
import { z } from 'zod';

it('sets zod to jitless (no `new Function` probe under the CSP) without importing zod', () => {
  expect(z.config().jitless).toBe(true);
});
