/**
 * Remix's own options. vite.config.ts passes them to the remix() plugin, so the
 * route convention and future flags live in one place.
 * @type {import('@remix-run/dev').VitePluginConfig}
 */
export default {
  ignoredRouteFiles: ['**/*.css', '**/*.test.{ts,tsx}', '**/.*'],
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
