/**
 * Pages outside the home page are lazy (`lazyRouteComponent(() => import('./Page.tsx'), 'Page')`
 * in the features' routes files): each area's modules and the libraries only they use become
 * chunks of their own, fetched when a link to them is hovered or focused (`defaultPreload:
 * 'intent'`) or the page is entered, so the first load of the public site carries none of them.
 * A chunk gone after a deploy reloads the page once (lazyRouteComponent); a second failure shows
 * the router's error component (RouteError) with a reload button.
 */

/**
 * A route component that hands the route's search values to a lazy page: preloading the route
 * fetches the page's chunk too (the router preloads `component.preload`, which a plain wrapper lacks).
 */
export function rendersLazyPage<Component extends (props: never) => unknown>(
  page: { preload?: (() => Promise<void> | undefined) | undefined },
  component: Component,
): Component & { preload: () => Promise<void> } {
  return Object.assign(component, {
    preload: async () => {
      await page.preload?.();
    },
  });
}
