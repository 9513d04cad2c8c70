import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { TEST_CHROMIUM_ARGS, testChromiumPath } from "./tests/fixtures/browser";

/**
 * End-to-end tests run against the production build, started the way an
 * operator starts it (`scripts/start.ts --demo`) on a fresh temporary
 * database and storage folder, in the Chromium tests/fixtures/browser.ts
 * names (Debian's headless shell, or CHROMIUM_PATH).
 */
const port = Number(process.env.E2E_PORT ?? 3210);
export const e2eStorageDir = process.env.E2E_STORAGE_DIR ?? path.join(os.tmpdir(), `kallo-e2e-${port}`);
const executablePath = testChromiumPath();

process.env.E2E_STORAGE_DIR = e2eStorageDir;
process.env.E2E_BASE_URL = `http://localhost:${port}`;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Per file, the tests' times for `npm test`'s table (E2E_TIMINGS_FILE).
  reporter: [["list"], ["./tests/e2e/fixtures/timing-reporter.ts"]],
  use: {
    baseURL: `http://localhost:${port}`,
    // A trace of every test costs a fifth of the run; ask for one when a failure needs it:
    // `npx playwright test --trace retain-on-failure` (or E2E_TRACE=retain-on-failure npm test).
    trace: (process.env.E2E_TRACE as "off" | "on" | "retain-on-failure" | undefined) ?? "off",
    launchOptions: {
      executablePath,
      args: TEST_CHROMIUM_ARGS,
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: {
    command: `node --import tsx tests/e2e/start-test-server.ts`,
    url: `http://localhost:${port}/healthz`,
    timeout: Number(process.env.E2E_SERVER_TIMEOUT_MS ?? 600_000),
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(port),
      STORAGE_DIR: e2eStorageDir,
      SESSION_SECRET: "e2e-session-secret-0123456789abcdef",
      NODE_ENV: "production",
      LOG_LEVEL: "error",
      // The tests stand in for a proxy on this box (their X-Forwarded-For gives each browser its own address), and Caddy runs in front of it for the https test.
      TRUST_PROXY: "loopback",
    },
  },
});
