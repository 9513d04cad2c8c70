import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";

/**
 * A process manager stops the service by signalling the process it started. Started as `npm start`, that is
 * npm, which ends on SIGTERM without passing it on: the server must stop with it, not keep serving alone.
 */
async function freePort(): Promise<number> {
  const server = net.createServer().listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    (response) => response.ok,
    () => false,
  );

it("stops the server when the npm that started it is sent SIGTERM", async () => {
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-npm-start-"));
  const port = await freePort();
  const npm = spawn("npm", ["start", "--silent"], {
    env: {
      ...process.env,
      PORT: String(port),
      STORAGE_DIR: storage,
      DATABASE_PATH: path.join(storage, "data.db"),
      SESSION_SECRET: "npm-start-secret-0123456789",
      WORKERS: "2",
      LOG_LEVEL: "error",
    },
    stdio: "ignore",
  });
  try {
    const url = `http://127.0.0.1:${port}/healthz`;
    await expect.poll(() => answers(url), { timeout: 90_000, interval: 500 }).toBe(true);
    npm.kill("SIGTERM");
    await expect.poll(() => answers(url), { timeout: 30_000, interval: 500 }).toBe(false);
    // Nothing of it is left running on the port.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await answers(url)).toBe(false);
  } finally {
    npm.kill("SIGKILL");
    fs.rmSync(storage, { recursive: true, force: true });
  }
}, 150_000);
