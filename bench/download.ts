/**
 * Offline downloads on a 2 Mbps link, in a real Chromium. `npm run
 * bench:download` after `npm run build`.
 *
 * Film: a processed storage folder of `npm run bench:playback` run with
 * BENCH_KEEP_STORAGE=1 (a 20-minute 720p film and its whole ladder; making it
 * takes about 25 minutes on 2 cores). BENCH_STORAGE names it; unset, the
 * newest /tmp/kallo-bench-playback-* folder holding bench-playback.json is used.
 *
 * For each run: a new browser with its own viewer (signed in outside the
 * browser, cookie put in the context), the service worker allowed (it is part
 * of downloading), the page's link throttled with CDP
 * `Network.emulateNetworkConditions` (BENCH_KBPS, 2000, both ways; 100 ms
 * latency) before the title page opens. Press Download, choose BENCH_RUNG
 * (240) and Start; measured until the page says "Downloaded":
 * - time vs the rendition's size ÷ the link speed (goal ≥ 0.9 of the link);
 * - bytes fetched from /stream/ (CDP encodedDataLength, headers included) ÷
 *   the file's size (goal ≤ 1.02), each answer's body checked against its
 *   Content-Range;
 * - run "pause": the same, paused at 40 % for 3 s and resumed (paused time
 *   left out of the speed figure; the bytes must still not be fetched twice).
 * Then, offline (CDP), the Downloads page: Play pressed → first frame
 * (requestVideoFrameCallback) (goal ≤ 1 s).
 *
 * Knobs: BENCH_STORAGE, BENCH_KBPS (2000), BENCH_RUNG (240), BENCH_MODES
 * ("straight,pause"), BENCH_PORT (3391), CHROMIUM_PATH.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type CDPSession, type Page } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { migrateDatabase, openDatabase } from "../app/db/client.server";
import { accounts, movieRenditions, plans } from "../app/db/schema";
import { hashPassword } from "../app/services/passwords.server";
import { PASSWORD, signIn, startServer } from "./lib";
import { testChromiumPath } from "../tests/fixtures/browser";

const KBPS = Number(process.env.BENCH_KBPS ?? 2000);
const RUNG = Number(process.env.BENCH_RUNG ?? 240);
const PORT = Number(process.env.BENCH_PORT ?? 3391);
const LATENCY_MS = 100;
const CHROMIUM = testChromiumPath() ?? "";

function findStorage(): string {
  if (process.env.BENCH_STORAGE) return process.env.BENCH_STORAGE;
  const candidates = fs
    .readdirSync(os.tmpdir())
    .filter((name) => name.startsWith("kallo-bench-playback-"))
    .map((name) => path.join(os.tmpdir(), name))
    .filter((dir) => fs.existsSync(path.join(dir, "bench-playback.json")))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  if (!candidates[0])
    throw new Error(
      "No processed film: run `BENCH_KEEP_STORAGE=1 npm run bench:playback` first (or set BENCH_STORAGE)",
    );
  return candidates[0];
}

/** Film bytes over the wire (/stream/ answers, cancelled ones included), each finished answer checked against its Content-Range. */
class StreamTraffic {
  bytes = 0;
  mismatches: string[] = [];
  private bodies = new Map<string, { received: number; expected: number | null }>();
  constructor(cdp: CDPSession) {
    cdp.on("Network.responseReceived", (event) => {
      if (!event.response.url.includes("/stream/")) return;
      const headers = Object.fromEntries(
        Object.entries(event.response.headers).map(([key, value]) => [key.toLowerCase(), String(value)]),
      );
      const range = /bytes (\d+)-(\d+)\//.exec(headers["content-range"] ?? "");
      this.bodies.set(event.requestId, {
        received: 0,
        expected: range ? Number(range[2]) - Number(range[1]) + 1 : null,
      });
    });
    cdp.on("Network.dataReceived", (event) => {
      const body = this.bodies.get(event.requestId);
      if (!body) return;
      body.received += event.dataLength;
      this.bytes += event.dataLength;
    });
    cdp.on("Network.loadingFinished", (event) => {
      const body = this.bodies.get(event.requestId);
      if (body && body.expected !== null && body.received !== body.expected)
        this.mismatches.push(`${body.received}/${body.expected}`);
    });
  }
}

async function throttled(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  const bytesPerSecond = (KBPS * 1000) / 8;
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: LATENCY_MS,
    downloadThroughput: bytesPerSecond,
    uploadThroughput: bytesPerSecond,
  });
  return cdp;
}

async function main() {
  const root = findStorage();
  const figures = JSON.parse(fs.readFileSync(path.join(root, "bench-playback.json"), "utf8")) as {
    movieId: string;
    durationSeconds: number;
  };
  const db = openDatabase(path.join(root, "data.db"));
  // As `npm start` does before it serves: the folder may come from an older version.
  migrateDatabase(db);
  const server = await startServer(root, PORT);
  try {
    // A free plan with downloads, and one viewer per run.
    db.insert(plans)
      .values({ id: "benchfreeplan", code: "FREE", name: "Free", maxRung: 1080 })
      .onConflictDoNothing()
      .run();
    const rendition = db
      .select()
      .from(movieRenditions)
      .where(and(eq(movieRenditions.movieId, figures.movieId), eq(movieRenditions.rung, RUNG)))
      .get();
    if (!rendition) throw new Error(`no ${RUNG}p rendition of ${figures.movieId}`);
    const hash = await hashPassword(PASSWORD);
    const idealSeconds = (rendition.sizeBytes * 8) / (KBPS * 1000);
    console.log(
      `[download] ${(figures.durationSeconds / 60).toFixed(0)}-minute film, ${RUNG}p: ${(rendition.sizeBytes / 1e6).toFixed(1)} MB; link ${KBPS} kbps, ${LATENCY_MS} ms: ideal ${idealSeconds.toFixed(0)} s`,
    );

    const browser = await chromium.launch({
      executablePath: CHROMIUM || undefined,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--autoplay-policy=no-user-gesture-required"],
    });
    const rows: string[] = [];
    const modes = (process.env.BENCH_MODES ?? "straight,pause")
      .split(",")
      .filter((mode): mode is "straight" | "pause" => mode === "straight" || mode === "pause");
    for (const mode of modes) {
      const email = `download-${mode}-${Date.now()}@bench.test`;
      db.insert(accounts)
        .values({
          id: `bd${mode}${Date.now().toString(36)}`.slice(0, 24),
          name: "Downloader",
          email,
          phoneNumber: "1",
          passwordHash: hash,
          role: "viewer",
        })
        .run();
      const cookie = await signIn(server.url, "/login", email);
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      const [name, value] = [cookie.slice(0, cookie.indexOf("=")), cookie.slice(cookie.indexOf("=") + 1)];
      await context.addCookies([{ name, value, url: server.url, httpOnly: true, sameSite: "Lax", secure: false }]);
      await context.addInitScript({ content: "globalThis.__name = (target) => target;" });
      const page = await context.newPage();
      page.setDefaultTimeout(600_000);
      // The worker installs first (unthrottled, as on Wi‑Fi the day before); then the link is throttled.
      await page.goto(`${server.url}/WatchMovie?id=${figures.movieId}`);
      await page.evaluate(() => navigator.serviceWorker.ready);
      await page.reload();
      const cdp = await throttled(page);
      const traffic = new StreamTraffic(cdp);
      const panel = page.getByRole("region", { name: "Download to watch offline" });
      await panel.getByRole("button", { name: "Download", exact: true }).click();
      await panel.getByRole("radio", { name: new RegExp(`^${RUNG}p`) }).check();
      const started = Date.now();
      let pausedMs = 0;
      await panel.getByRole("button", { name: "Start download" }).click();
      if (mode === "pause") {
        await page.waitForFunction((total) => {
          const bar = document.querySelector("progress");
          return bar ? Number(bar.value) >= total * 0.4 : false;
        }, rendition.sizeBytes);
        const pausedAt = Date.now();
        await panel.getByRole("button", { name: "Pause" }).click();
        await panel.getByRole("button", { name: "Resume" }).waitFor();
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        await panel.getByRole("button", { name: "Resume" }).click();
        pausedMs = Date.now() - pausedAt;
      }
      await panel.getByText("Downloaded").waitFor({ timeout: 900_000 });
      const seconds = (Date.now() - started - pausedMs) / 1000;
      const linkShare = idealSeconds / seconds;
      const fetchedRatio = traffic.bytes / rendition.sizeBytes;
      rows.push(
        `${mode.padEnd(9)} ${seconds.toFixed(1).padStart(7)} s  link used ${linkShare.toFixed(3)} (goal ≥ 0.9)  fetched ${(traffic.bytes / 1e6).toFixed(2)} MB = ${fetchedRatio.toFixed(4)} × file (goal ≤ 1.02)${traffic.mismatches.length ? `  MISMATCHES ${traffic.mismatches.join(", ")}` : ""}`,
      );
      console.log(`[download] ${rows[rows.length - 1]}`);

      if (mode === "straight") {
        await cdp.send("Network.emulateNetworkConditions", {
          offline: true,
          latency: 0,
          downloadThroughput: -1,
          uploadThroughput: -1,
        });
        await context.setOffline(true);
        await page.goto(`${server.url}/downloads`);
        const frames: number[] = [];
        for (let i = 0; i < 3; i++) {
          if (i > 0) await page.reload();
          const item = page.locator(`[data-download-id="${figures.movieId}"]`);
          await item.getByRole("button", { name: "Play" }).waitFor();
          const firstFrame = page.evaluate(
            () =>
              new Promise<number>((resolve) => {
                const pressed = performance.now();
                const wait = () => {
                  const video = document.querySelector<HTMLVideoElement>('[data-testid="offline-player"] video');
                  if (!video) return requestAnimationFrame(wait);
                  video.requestVideoFrameCallback(() => resolve(performance.now() - pressed));
                };
                (window as unknown as { __pressPlay: () => void }).__pressPlay = wait;
              }),
          );
          await page.evaluate(() => {
            (document.querySelector("[data-download-id] button") as HTMLButtonElement).click();
            (window as unknown as { __pressPlay: () => void }).__pressPlay();
          });
          frames.push(await firstFrame);
        }
        rows.push(
          `offline first frame after Play: ${frames.map((ms) => ms.toFixed(0)).join(", ")} ms (goal ≤ 1000 ms)`,
        );
        console.log(`[download] ${rows[rows.length - 1]}`);
      }
      await context.close();
    }
    await browser.close();
    console.log(
      `\n[download] ${RUNG}p of a ${(figures.durationSeconds / 60).toFixed(0)}-minute film at ${KBPS} kbps (${(rendition.sizeBytes / 1e6).toFixed(1)} MB, ideal ${idealSeconds.toFixed(0)} s):\n  ${rows.join("\n  ")}`,
    );
  } finally {
    await server.stop();
    db.$client.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
