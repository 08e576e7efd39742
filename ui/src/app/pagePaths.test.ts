import { pagePaths } from '@shared/site/pagePaths.ts';
import { expect, it } from 'vitest';
import { router } from './router.tsx';

it("lists exactly the router's pages, so the server answers 404 for nothing the app shows", () => {
  expect(Object.keys(router.routesByPath).sort()).toEqual([...pagePaths].sort());
});
