import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

/**
 * End-to-end tests run against the production build, started the way an
 * operator starts it (`scripts/start.ts --demo`) on a fresh temporary
 * database and storage folder. Chromium comes from CHROMIUM_PATH (Debian's
 * /usr/bin/chromium by default); set CHROMIUM_PATH="" to use Playwright's own.
 */
const port = Number(process.env.E2E_PORT ?? 3210);
export const e2eStorageDir = process.env.E2E_STORAGE_DIR ?? path.join(os.tmpdir(), `kallo-e2e-${port}`);
const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

process.env.E2E_STORAGE_DIR = e2eStorageDir;
process.env.E2E_BASE_URL = `http://localhost:${port}`;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: executablePath || undefined,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--autoplay-policy=no-user-gesture-required",
      ],
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
