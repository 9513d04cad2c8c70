import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Contract and fuzz tests of /api: they start the production build (`npm run
 * build` first) on a temporary storage folder, so they run apart from the
 * unit tests (`npm run test:api`). Two files at a time: a file's server
 * waits on timers and sockets most of its time, and each takes a free port.
 */
export default defineConfig({
  resolve: {
    alias: { "~": path.resolve(import.meta.dirname, "app") },
  },
  test: {
    include: ["tests/api/**/*.test.ts"],
    environment: "node",
    testTimeout: 90_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
