import { flatRoutes } from 'remix-flat-routes';

/**
 * Remix's own options. vite.config.ts passes them to the remix() plugin, so the
 * route convention and future flags live in one place.
 * @type {import('@remix-run/dev').VitePluginConfig}
 */
export default {
  // Routes are read by remix-flat-routes so that folders ending in `+` group them by
  // feature (`_auth+/`, `_library+/`, `api+/`) while URLs stay those of plain flat routes;
  // Remix's own scan is switched off so no file is picked up twice.
  ignoredRouteFiles: ['**/*'],
  routes: async (defineRoutes) =>
    flatRoutes('routes', defineRoutes, {
      ignoredRouteFiles: ['**/*.css', '**/*.test.{ts,tsx}', '**/.*'],
    }),
  serverModuleFormat: 'esm',
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
    v3_routeConfig: false,
  },
};
