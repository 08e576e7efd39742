import { describe, expect, it } from 'vitest';
import { isPagePath } from './pagePaths.ts';

describe('isPagePath', () => {
  it('knows the pages, a parameter as one segment, one trailing slash, any letter case (as the router matches)', () => {
    for (const path of ['/', '/login', '/student/', '/student-info/abc-123', '/sandbox/checkout/cs_1', '/dev/mailbox', '/LOGIN']) {
      expect(isPagePath(path), path).toBe(true);
    }
  });

  it('refuses everything else', () => {
    for (const path of ['/nope', '/login/extra', '/student-info', '/student-info/', '/student-info/a/b', '/login.html', '/login//']) {
      expect(isPagePath(path), path).toBe(false);
    }
  });
});
