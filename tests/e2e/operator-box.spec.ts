import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { testChromiumPath } from "../fixtures/browser";
import { createViewer, signInThroughForm } from "./fixtures/accounts";
import { expect, test } from "./fixtures/test";

/**
 * The small operator's box as people reach it: by the server's name on a LAN
 * over plain http, and through Caddy in front with TLS (the repository's
 * Caddyfile with `tls internal`). Sign-in works both ways; the session cookie
 * is Secure exactly on https.
 */
const port = Number(new URL(process.env.E2E_BASE_URL!).port);
const NAME = "kallo-box.lan";
const HTTPS_PORT = Number(process.env.E2E_CADDY_PORT ?? 3443);

async function browserResolving(name: string): Promise<Browser> {
  return chromium.launch({
    executablePath: testChromiumPath(),
    args: ["--no-sandbox", "--disable-gpu", `--host-resolver-rules=MAP ${name} 127.0.0.1`],
  });
}

test("a viewer signs in over plain http by the server's name on the LAN; the cookie is not Secure and the session holds", async () => {
  const viewer = await createViewer("lan");
  const browser = await browserResolving(NAME);
  try {
    const context = await browser.newContext({
      baseURL: `http://${NAME}:${port}`,
      extraHTTPHeaders: { "X-Forwarded-For": "10.20.30.40" },
    });
    const page = await context.newPage();
    await signInThroughForm(page, "/login", viewer.email, viewer.password);
    await expect(page).toHaveURL(new RegExp(`^http://${NAME.replace(/\./g, "\\.")}:${port}/movies`));
    const cookie = (await context.cookies()).find((c) => c.name === "kallo_session");
    expect(cookie?.secure).toBe(false);
    // Still signed in on the next page: the cookie came back.
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  } finally {
    await browser.close();
  }
});

test.describe("through Caddy with tls internal", () => {
  let caddy: ChildProcess | undefined;
  const caddyDir = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-e2e-caddy-"));

  test.beforeAll(async () => {
    const binary = ["/usr/bin/caddy", "/usr/local/bin/caddy"].find((candidate) => fs.existsSync(candidate));
    test.skip(!binary, "Caddy is not installed (apt-get install caddy); the TLS setup is not tested here");
    // The operator's Caddyfile as it is, with test ports and a throwaway data folder.
    const config = path.join(caddyDir, "Caddyfile");
    fs.writeFileSync(
      config,
      `{\n\tadmin off\n\thttp_port ${HTTPS_PORT + 1}\n\thttps_port ${HTTPS_PORT}\n\tskip_install_trust\n}\nimport ${path.resolve("Caddyfile")}\n`,
    );
    caddy = spawn(binary!, ["run", "--config", config, "--adapter", "caddyfile"], {
      env: {
        ...process.env,
        XDG_DATA_HOME: caddyDir,
        XDG_CONFIG_HOME: caddyDir,
        HOME: caddyDir,
        KALLO_SITE: NAME,
        KALLO_TLS: "internal",
        KALLO_UPSTREAM: `127.0.0.1:${port}`,
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let log = "";
    caddy.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
    const deadline = Date.now() + 20_000;
    while (!(await healthy())) {
      if (Date.now() > deadline) throw new Error(`Caddy did not answer:\n${log.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
  test.afterAll(() => {
    caddy?.kill("SIGTERM");
    fs.rmSync(caddyDir, { recursive: true, force: true });
  });

  function healthy(): Promise<boolean> {
    return new Promise((resolve) => {
      const request = https.get(
        {
          host: "127.0.0.1",
          port: HTTPS_PORT,
          path: "/healthz",
          servername: NAME,
          headers: { Host: `${NAME}:${HTTPS_PORT}` },
          rejectUnauthorized: false,
        },
        (response) => {
          response.resume();
          resolve(response.statusCode === 200);
        },
      );
      request.on("error", () => resolve(false));
    });
  }

  test("a viewer signs in over https; the session cookie is Secure and the session holds", async () => {
    const viewer = await createViewer("tls");
    const browser = await browserResolving(NAME);
    try {
      const context = await browser.newContext({ baseURL: `https://${NAME}:${HTTPS_PORT}`, ignoreHTTPSErrors: true });
      const page = await context.newPage();
      await signInThroughForm(page, "/login", viewer.email, viewer.password);
      await expect(page).toHaveURL(/\/movies/);
      const cookie = (await context.cookies()).find((c) => c.name === "kallo_session");
      expect(cookie?.secure).toBe(true);
      expect(cookie?.httpOnly).toBe(true);
      await page.goto("/profile");
      await expect(page).toHaveURL(/\/profile$/);
    } finally {
      await browser.close();
    }
  });
});
