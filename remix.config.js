/**
 * `npm run build` (scripts/build.ts) sets KALLO_BUILD_DIR: each build goes into its own folder beside the one in use.
 * @type {import('@remix-run/dev').AppConfig}
 */
const buildDir = process.env.KALLO_BUILD_DIR;
export default {
  ...(buildDir ? { serverBuildPath: `${buildDir}/index.js`, assetsBuildDirectory: `${buildDir}/public` } : {}),
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverPlatform: "node",
  postcss: true,
  tailwind: false,
  // Server-only packages with native parts stay outside the server bundle.
  serverDependenciesToBundle: [],
  future: {
    v3_fetcherPersist: true,
    v3_lazyRouteDiscovery: true,
    v3_relativeSplatPath: true,
    v3_singleFetch: true,
    v3_throwAbortReason: true,
  },
};
