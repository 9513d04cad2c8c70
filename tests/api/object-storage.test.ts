import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { movies, plans } from "~/db/schema";
import { buildLadder } from "~/services/renditions.server";
import { grantPass } from "~/services/passes.server";
import { startS3rver, type S3Server } from "../fixtures/s3-servers";
import { testChromiumPath } from "../fixtures/browser";
import { startPlaying } from "../e2e/fixtures/titles";
import { freePort } from "../fixtures/ports";
import { call, login, seedAccount, seedMovie, startApiWorld } from "./helpers";
import type { ApiWorld, Credentials } from "./helpers";

/**
 * The production build with MEDIA_STORE=s3 against s3rver on loopback: the
 * byte routes hand a title held in the bucket to a viewer by signed address
 * only after the usual checks (an unentitled viewer never sees one), Chromium
 * plays it from the bucket, and a bucket that stops answering leaves the
 * pages up, tells the viewer, and shows in /healthz and /metrics.
 */
let world: ApiWorld;
let s3: S3Server;
let viewer: Credentials;
let paidViewer: Credentials;
let freeTitle: string;
let premiumTitle: string;
let browser: Browser | null = null;
let providerAccount: ReturnType<typeof seedAccount>;

const SIGNED = /X-Amz-Signature=[0-9a-f]{64}/;

function mediaMove(env: Record<string, string>) {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/media-move.ts", "--to", "s3"], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => (code === 0 ? resolve(output) : reject(new Error(output))));
  });
}

beforeAll(async () => {
  s3 = await startS3rver(await freePort());
  const serverEnv = { ...s3.env, S3_TIMEOUT_SECONDS: "2" };
  world = await startApiWorld("object-storage", serverEnv);
  const provider = (providerAccount = seedAccount(world, "provider"));
  [viewer, paidViewer] = await Promise.all([
    login(world, seedAccount(world, "viewer")),
    login(world, seedAccount(world, "viewer")),
  ]);
  world.db
    .insert(plans)
    .values([
      { id: "planfree", code: "FREE", name: "Free" },
      { id: "planbasic", code: "BASIC", name: "Basic", premium: true, maxRung: 2160 },
    ])
    .onConflictDoNothing()
    .run();
  world.db.transaction((tx) =>
    grantPass(tx, { accountId: paidViewer.account.id, planId: "planbasic", days: 7, source: "admin" }),
  );
  freeTitle = (await seedMovie(world, provider.id, { withFiles: true })).id;
  premiumTitle = (await seedMovie(world, provider.id, { withFiles: true, access: "premium" })).id;
  for (const id of [freeTitle, premiumTitle]) {
    const movie = world.db.select().from(movies).where(eq(movies.id, id)).get()!;
    world.db.update(movies).set({ width: 320, height: 240 }).where(eq(movies.id, movie.id)).run();
    await buildLadder(world.db, id, { root: world.root, ladder: [144], pass: "all" });
  }
  await mediaMove({ ...serverEnv, STORAGE_DIR: world.root, DATABASE_PATH: `${world.root}/data.db` });
  // The player reads the bucket from the site's pages.
  const { ObjectStore } = await import("~/media/object-store.server");
  const { parseEnv } = await import("~/utils/env.server");
  const store = new ObjectStore(parseEnv(serverEnv).s3!);
  await store.allowBrowserReads([world.url]);
  store.client.destroy();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await world?.stop();
  await s3?.stop();
});

describe("films held in the bucket, served by the production build", () => {
  it("were moved there: the disk keeps only what the box serves itself", () => {
    for (const id of [freeTitle, premiumTitle])
      expect(world.db.select({ store: movies.mediaStore }).from(movies).where(eq(movies.id, id)).get()?.store).toBe(
        "s3",
      );
  });

  it("gives an entitled viewer the rung's playlist with one signed address, and the byte routes redirect to it", async () => {
    const playlist = await call(world, `/stream/${freeTitle}/144p.m3u8`, { cookie: viewer.cookie });
    expect(playlist.status).toBe(200);
    const addresses = new Set(playlist.text.split("\n").filter((line) => line.startsWith("http")));
    expect(addresses.size).toBe(1);
    const [address] = addresses;
    expect(address.startsWith(`${s3.endpoint}/${s3.bucket}/media/${freeTitle}/hls/144p.mp4?`)).toBe(true);
    expect(address).toMatch(SIGNED);
    expect(playlist.headers.get("Cache-Control")).toMatch(/private/);

    const rung = await call(world, `/stream/${freeTitle}/144p.mp4`, {
      cookie: viewer.cookie,
      headers: { Range: "bytes=0-99" },
    });
    expect(rung.status).toBe(302);
    expect(rung.headers.get("Location")).toMatch(SIGNED);
    expect(rung.headers.get("Cache-Control")).toBe("private, no-store");
    const bytes = await fetch(rung.headers.get("Location")!, { headers: { Range: "bytes=0-99" } });
    expect(bytes.status).toBe(206);

    // The old clients' path (the page's <video> without JavaScript too): the same rule.
    const old = await call(world, `/api/files/${freeTitle}.mp4`, { cookie: viewer.cookie });
    expect(old.status).toBe(302);
    expect(old.headers.get("Location")).toMatch(SIGNED);
    expect((await fetch(old.headers.get("Location")!, { method: "HEAD" })).status).toBe(200);
  });

  it("never signs an address for someone who may not play the title", async () => {
    // Premium without a pass: refused before any address is made.
    for (const path of [
      `/stream/${premiumTitle}/144p.m3u8`,
      `/stream/${premiumTitle}/144p.mp4`,
      `/api/files/${premiumTitle}.mp4`,
    ]) {
      const refused = await call(world, path, { cookie: viewer.cookie });
      expect(refused.status, path).toBe(403);
      expect(refused.text).not.toMatch(/X-Amz/);
      expect(refused.headers.get("Location")).toBeNull();
      const anonymous = await call(world, path);
      expect(anonymous.status, path).toBe(401);
      expect(anonymous.text).not.toMatch(/X-Amz/);
    }
    // The paying viewer gets one; the other viewer, holding the same page address, still gets nothing.
    const paid = await call(world, `/stream/${premiumTitle}/144p.m3u8`, { cookie: paidViewer.cookie });
    expect(paid.text).toMatch(SIGNED);
    const borrowed = await call(world, `/stream/${premiumTitle}/144p.m3u8`, { cookie: viewer.cookie });
    expect(borrowed.status).toBe(403);
    expect(borrowed.body.reason).toBe("pass_required");
  });

  it("plays in Chromium from the bucket's signed addresses, the box sending only pages and playlists", async () => {
    browser = await chromium.launch({ executablePath: testChromiumPath() });
    const context = await browser.newContext({ baseURL: world.url });
    const [name, value] = viewer.cookie.split("=");
    await context.addCookies([{ name, value, url: world.url }]);
    const page = await context.newPage();
    const fromBox: string[] = [];
    const fromBucket: string[] = [];
    const failures: string[] = [];
    page.on("request", (request) => {
      const url = request.url();
      if (url.startsWith(s3.endpoint)) fromBucket.push(url);
      else if (url.includes("/stream/")) fromBox.push(url);
    });
    const boxFilmAnswers: number[] = [];
    page.on("response", (response) => {
      if (response.url().startsWith(world.url) && /\/stream\/.*\.mp4(\?|$)/.test(response.url()))
        boxFilmAnswers.push(response.status());
    });
    page.on("requestfailed", (request) => failures.push(`${request.url()} ${request.failure()?.errorText}`));
    page.on("console", (message) => {
      if (message.type() === "error") failures.push(message.text());
    });
    await page.goto(`/WatchMovie?id=${freeTitle}`);
    const video = page.locator("video").first();
    await startPlaying(video);
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 30_000 })
      .toBeGreaterThan(0.5);
    expect(fromBucket.length, failures.join("\n")).toBeGreaterThan(0);
    expect(fromBucket.every((url) => SIGNED.test(url))).toBe(true);
    // The box answered the playlists; no film byte came from it (the progressive fallback's address only redirects).
    expect(
      boxFilmAnswers.every((status) => status === 302),
      String(boxFilmAnswers),
    ).toBe(true);
    expect(fromBox.some((url) => url.endsWith("144p.m3u8"))).toBe(true);
    await context.close();
  }, 180_000);

  it("keeps serving pages when the bucket stops answering, says so on the title, and counts the errors", async () => {
    await s3.pause();
    try {
      // Within seconds of the bucket going away, every worker's next check finds it.
      await expect
        .poll(async () => (await call(world, "/healthz")).body.status, { timeout: 30_000, interval: 1000 })
        .toBe("degraded");
      const health = await call(world, "/healthz");
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({ status: "degraded", mediaStore: "unreachable" });
      expect(health.body.message).toMatch(/media bucket cannot be reached/);

      expect((await call(world, "/")).status).toBe(200);
      const watch = await call(world, `/WatchMovie?id=${freeTitle}`, { cookie: viewer.cookie });
      expect(watch.status).toBe(200);
      expect(watch.text).toContain("This film cannot be reached right now");
      const hausa = await call(world, `/WatchMovie?id=${freeTitle}`, {
        cookie: viewer.cookie,
        headers: { "Accept-Language": "ha" },
      });
      expect(hausa.text).toContain("Ba a iya samun wannan fim a yanzu");

      const rung = await call(world, `/stream/${freeTitle}/144p.m3u8`, { cookie: viewer.cookie });
      expect(rung.status).toBe(503);
      expect(rung.body).toMatchObject({ reason: "unreachable" });
      expect(rung.headers.get("Retry-After")).toBe("60");

      const metrics = await call(world, "/metrics", { headers: { "X-Forwarded-For": "127.0.0.1" } });
      const errors = metrics.text
        .split("\n")
        .filter((line) => line.startsWith("kallo_object_store_errors_total{"))
        .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
      expect(
        errors,
        metrics.text
          .split("\n")
          .filter((line) => /object_store|bucket/.test(line))
          .join("\n"),
      ).toBeGreaterThan(0);
      expect(metrics.text).toMatch(/kallo_media_bucket_up 0/);
      expect(metrics.text).toMatch(/kallo_titles_by_store\{store="s3"\} 2/);
    } finally {
      await s3.resume();
    }
    // Back: the next check finds it, and the title plays again.
    await expect
      .poll(async () => JSON.stringify((await call(world, "/healthz")).body), { timeout: 40_000, interval: 2000 })
      .toContain('"status":"ok"');
    expect((await call(world, `/stream/${freeTitle}/144p.m3u8`, { cookie: viewer.cookie })).status).toBe(200);
  }, 180_000);
});

describe("titles held in the bucket on the provider's and administrator's pages", () => {
  it("are said to be in the media bucket, not on this disk", async () => {
    const provider = await login(world, providerAccount);
    const list = await call(world, "/provider/movielist", { cookie: provider.cookie });
    expect(list.status).toBe(200);
    expect(list.text).toMatch(/[\d.]+ MB in the media bucket/);
    expect(list.text).not.toMatch(/[\d.]+ MB on disk/);
    const admin = await login(world, seedAccount(world, "admin"));
    const movies = await call(world, "/admin/movies", { cookie: admin.cookie });
    expect(movies.text).toMatch(/The adaptive ladder takes 0\.00 GB of disk for 0 titles\./);
    expect(movies.text).toMatch(/The media bucket holds [\d.]+ GB of it for 2 more titles\./);
  });
});

describe("a bucket that cannot work with the settings", () => {
  it("stops the start naming the setting, and a running server's /healthz and /metrics name it too", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-bucket-settings-"));
    // s3rver answers from this process: the start runs beside it, not blocking it.
    const startWith = async (env: Record<string, string>) => {
      const child = spawn(process.execPath, ["build/server/start.js"], {
        env: {
          ...process.env,
          ...s3.env,
          STORAGE_DIR: root,
          SESSION_SECRET: "bucket-settings-secret-0123456789",
          PORT: String(await freePort()),
          ...env,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
      const status = await new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      clearTimeout(timer);
      return { status, stdout, stderr };
    };
    try {
      const missing = await startWith({ S3_BUCKET: "no-such-bucket" });
      expect(missing.status, missing.stdout + missing.stderr).toBe(1);
      expect(missing.stderr).toContain(
        'Kallo cannot start: the media bucket: S3_BUCKET: the bucket "no-such-bucket" does not exist',
      );
      expect(missing.stderr).not.toMatch(/\n\s+at /);
      const unknownKey = await startWith({ S3_ACCESS_KEY_ID: "NOSUCHKEY" });
      expect(unknownKey.status, unknownKey.stdout + unknownKey.stderr).toBe(1);
      expect(unknownKey.stderr).toContain("S3_ACCESS_KEY_ID: ");
      expect(unknownKey.stderr).toContain('does not know the key "NOSUCHKEY"');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }

    // The media commands sign nothing: they run without SESSION_SECRET, even in production.
    const cors = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const { SESSION_SECRET: _unused, ...withoutSecret } = process.env;
      const child = spawn(process.execPath, ["--import", "tsx", "scripts/media-cors.ts", "https://kallo.example"], {
        env: { ...withoutSecret, ...s3.env, NODE_ENV: "production" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
      child.once("exit", (code) => resolve({ code, output }));
    });
    expect(cors, cors.output).toMatchObject({ code: 0 });
    expect(cors.output).toContain("GET and HEAD with Range allowed from https://kallo.example");

    // A server already running when the bucket goes (or started by hand past the check): never "ok".
    const other = await startApiWorld("no-bucket", { ...s3.env, S3_BUCKET: "no-such-bucket", S3_TIMEOUT_SECONDS: "2" });
    try {
      await expect
        .poll(async () => (await call(other, "/healthz")).body.mediaStore, { timeout: 20_000, interval: 500 })
        .toBe("no-bucket");
      const health = await call(other, "/healthz");
      expect(health.body.status).toBe("degraded");
      expect(health.body.message).toContain(
        'the media bucket refuses this box: S3_BUCKET: the bucket "no-such-bucket"',
      );
      const metrics = await call(other, "/metrics", { headers: { "X-Forwarded-For": "127.0.0.1" } });
      expect(metrics.text).toMatch(/kallo_media_bucket_up 0/);
      expect(metrics.text).toMatch(/kallo_media_bucket_problem\{kind="no-bucket"\} 1/);
      expect(metrics.text).toMatch(/kallo_media_bucket_problem\{kind="network"\} 0/);
    } finally {
      await other.stop();
    }
  }, 120_000);
});

describe("a CDN in front of the bucket", () => {
  /**
   * A CDN as the README's private-bucket way has it: it checks Kallo's own signature (MEDIA_URL_SIGNING=cdn:
   * nginx secure_link's md5 and expires) and reads the bucket with requests signed by its own key, so the
   * bucket needs no public read. `readsBucket: false` is a CDN whose origin requests the bucket refuses.
   */
  async function startCdn(readsBucket: boolean, cdnKey: string) {
    const { GetObjectCommand, S3Client } = await import("@aws-sdk/client-s3");
    const { createHash } = await import("node:crypto");
    const http = await import("node:http");
    const client = new S3Client({
      endpoint: s3.env.S3_ENDPOINT,
      region: s3.env.S3_REGION ?? "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: s3.env.S3_ACCESS_KEY_ID!, secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY! },
    });
    const server = http.createServer(async (req, res) => {
      const url = new URL(req.url ?? "/", "http://cdn");
      const expires = Number(url.searchParams.get("expires"));
      const md5 = createHash("md5").update(`${expires}${url.pathname} ${cdnKey}`).digest("base64url");
      if (url.searchParams.get("md5") !== md5 || expires < Date.now() / 1000) {
        res.writeHead(403).end("bad signature");
        return;
      }
      if (!readsBucket) {
        res.writeHead(403).end("AccessDenied from the origin");
        return;
      }
      try {
        const key = decodeURIComponent(url.pathname.slice(1));
        const object = await client.send(new GetObjectCommand({ Bucket: s3.env.S3_BUCKET!, Key: key }));
        res.writeHead(200, { "Content-Type": object.ContentType ?? "application/octet-stream" });
        res.end(Buffer.from(await object.Body!.transformToByteArray()));
      } catch {
        res.writeHead(502).end();
      }
    });
    const port = await freePort();
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    return {
      url: `http://127.0.0.1:${port}`,
      stop: () => {
        client.destroy();
        return new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }

  it("is checked with a file the bucket holds: one that cannot read a private bucket is named, one that can is ok", async () => {
    const cdnKey = "cdn-key-0123456789abcdef0123456789abcdef";
    for (const readsBucket of [false, true]) {
      const cdn = await startCdn(readsBucket, cdnKey);
      const other = await startApiWorld(`cdn-${readsBucket}`, {
        ...s3.env,
        MEDIA_BASE_URL: cdn.url,
        MEDIA_URL_SIGNING: "cdn",
        MEDIA_CDN_KEY: cdnKey,
      });
      try {
        const health = await call(other, "/healthz");
        if (readsBucket) {
          expect(health.body).toMatchObject({ status: "ok", mediaStore: "ok" });
          const metrics = await call(other, "/metrics", { headers: { "X-Forwarded-For": "127.0.0.1" } });
          expect(metrics.text).toMatch(/kallo_media_cdn_up 1/);
        } else {
          expect(health.body.status).toBe("degraded");
          expect(health.body.message).toContain(
            `MEDIA_BASE_URL: the CDN at ${cdn.url} answers 403 for a file the bucket holds (kallo-health-check/cdn-probe.txt): it cannot read the bucket, or does not take the addresses MEDIA_CDN_KEY signs`,
          );
          const metrics = await call(other, "/metrics", { headers: { "X-Forwarded-For": "127.0.0.1" } });
          expect(metrics.text).toMatch(/kallo_media_cdn_up 0/);
        }
      } finally {
        await other.stop();
        await cdn.stop();
      }
    }
  }, 120_000);
});
