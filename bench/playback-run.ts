/** One playback run: a phone-sized Chromium on a shaped link presses play, and the film's requests, bytes and video events are recorded until the window ends. */
import path from "node:path";
import { eq } from "drizzle-orm";
import { chromium, type Browser, type CDPSession, type Page } from "@playwright/test";
import { TEST_CHROMIUM_ARGS } from "../tests/fixtures/browser";
import { openDatabase } from "../app/db/client.server";
import { accounts } from "../app/db/schema";
import { signIn, type RunningServer } from "./lib";
import { accountBytes, type ByteAccount, type FetchedRange, type RungMap } from "./playback-bytes";
import {
  CHROMIUM,
  DATA_SAVER,
  EARLY_CHECK_SECONDS,
  FIRST_FRAME_TIMEOUT_MS,
  LATENCY_MS,
  PAUSE_SECONDS,
  PLAY_SECONDS,
  SEEK_TIMEOUT_MS,
  SEEK_TO,
  SETTLE_MS,
  STATED_READ_AHEAD,
  VERBOSE,
  fmt,
  seconds,
  sleep,
  type PlayerName,
  withTimeout,
  VIEW_HEIGHT,
  VIEW_WIDTH,
} from "./playback-settings";
import { viewerEmail, viewerId } from "./playback-film";

// ---------------------------------------------------------------------------
// 3. Playback runs

type MediaRequest = {
  url: string;
  rung: number | null;
  status: number;
  /** The body length the headers announce; null when they do not (or the body is compressed: Content-Length is then the compressed size). */
  expectedBytes: number | null;
  compressed: boolean;
  bodyBytes: number;
  encodedBytes: number;
  finalEncoded: number | null;
  fromCache: boolean;
  state: "loading" | "finished" | "failed" | "cancelled";
  /** The Range asked for, and when (Date.now()) the request started and ended: for BENCH_VERBOSE. */
  range: string;
  sentAt: number;
  endedAt: number | null;
};

/** The film's requests of one page, from CDP Network events. */
class MediaTraffic {
  readonly requests = new Map<string, MediaRequest>();

  constructor(cdp: CDPSession) {
    cdp.on("Network.requestWillBeSent", (event) => {
      const rung = filmRung(event.request.url);
      if (rung === undefined) return;
      this.requests.set(event.requestId, {
        url: event.request.url,
        rung,
        status: 0,
        expectedBytes: null,
        compressed: false,
        bodyBytes: 0,
        encodedBytes: 0,
        finalEncoded: null,
        fromCache: false,
        state: "loading",
        range: headerValue(event.request.headers, "range") ?? "",
        sentAt: Date.now(),
        endedAt: null,
      });
    });
    cdp.on("Network.requestServedFromCache", (event) => {
      const request = this.requests.get(event.requestId);
      if (request) request.fromCache = true;
    });
    cdp.on("Network.responseReceived", (event) => {
      const request = this.requests.get(event.requestId);
      if (!request) return;
      request.status = event.response.status;
      if (event.response.fromDiskCache || event.response.fromPrefetchCache) request.fromCache = true;
      const encoding = headerValue(event.response.headers, "content-encoding")?.trim().toLowerCase();
      request.compressed = Boolean(encoding && encoding !== "identity");
      request.expectedBytes = request.compressed ? null : expectedBodyBytes(event.response.headers);
    });
    cdp.on("Network.dataReceived", (event) => {
      const request = this.requests.get(event.requestId);
      if (!request) return;
      request.bodyBytes += event.dataLength;
      request.encodedBytes += event.encodedDataLength;
    });
    cdp.on("Network.loadingFinished", (event) => {
      const request = this.requests.get(event.requestId);
      if (!request) return;
      request.state = "finished";
      request.finalEncoded = event.encodedDataLength;
      request.endedAt = Date.now();
    });
    cdp.on("Network.loadingFailed", (event) => {
      const request = this.requests.get(event.requestId);
      if (!request) return;
      request.state = event.canceled ? "cancelled" : "failed";
      request.endedAt = Date.now();
    });
  }

  /** Bytes that came over the network so far (headers included; nothing for answers from the cache). */
  bytes(): number {
    let total = 0;
    for (const request of this.requests.values()) {
      if (request.finalEncoded !== null) total += request.finalEncoded;
      else if (!request.fromCache) total += Math.max(request.encodedBytes, request.bodyBytes);
      else total += request.encodedBytes;
    }
    return total;
  }

  /** Finished answers whose body length the headers announce. */
  checkable(): MediaRequest[] {
    return [...this.requests.values()].filter(
      (request) => request.state === "finished" && request.expectedBytes !== null,
    );
  }

  /** Finished answers whose body is not as long as their Content-Length / Content-Range said. */
  mismatches(): Array<MediaRequest & { path: string }> {
    return [...this.requests.values()]
      .filter(
        (request) =>
          request.state === "finished" && request.expectedBytes !== null && request.bodyBytes !== request.expectedBytes,
      )
      .map((request) => ({ ...request, path: new URL(request.url).pathname }));
  }

  /** What came of each rung file: from the asked range's start, as many bytes as arrived. */
  fetchedRanges(): FetchedRange[] {
    return [...this.requests.values()]
      .filter((request) => request.rung !== null && request.bodyBytes > 0)
      .map((request) => ({
        rung: request.rung!,
        offset: Number(/^bytes=(\d+)-/.exec(request.range)?.[1] ?? 0),
        bytes: request.bodyBytes,
        sentAt: request.sentAt,
      }));
  }

  rungsFetched(): number[] {
    return [
      ...new Set(
        [...this.requests.values()]
          .filter((request) => request.rung !== null && request.bodyBytes > 0)
          .map((request) => request.rung!),
      ),
    ].sort((a, b) => a - b);
  }
}

/**
 * undefined: not a film request; null: a film request that is no rung file (playlists, the progressive MP4).
 * A rung file's number is its rung, negative for an AV1 + Opus rung (`rungLabel` names it "240p-av1").
 */
function filmRung(url: string): number | null | undefined {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const stream = /^\/stream\/[^/]+\/(?:master\.m3u8|(\d+)p(-av1)?\.(m3u8|mp4))$/.exec(pathname);
  if (stream) return stream[3] === "mp4" ? Number(stream[1]) * (stream[2] ? -1 : 1) : null;
  if (/^\/api\/files\/[^/]+\.mp4$/.test(pathname)) return null;
  return undefined;
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

function expectedBodyBytes(headers: Record<string, string>): number | null {
  const range = /bytes (\d+)-(\d+)\//.exec(headerValue(headers, "content-range") ?? "");
  if (range) return Number(range[2]) - Number(range[1]) + 1;
  const length = headerValue(headers, "content-length");
  return length !== undefined && /^\d+$/.test(length.trim()) ? Number(length) : null;
}

/** Bytes against film at one moment of a run. */
export type Checkpoint = {
  label: string;
  /** Seconds of film played so far. */
  playedSeconds: number;
  position: number;
  /** What the media element holds ahead of the position, in seconds. */
  bufferedAhead: number;
  /** Film bytes over the network since the page opened (headers and playlists included). */
  fetched: number;
  /** Bytes of film played (segments before the position; the progressive file pro rata). */
  played: number;
  /** The stated read-ahead in bytes (none for the progressive MP4, which states none). */
  allowance: number | null;
  account: ByteAccount | null;
  /** What the player itself says it fetched (`data-spent-bytes`), when it counts. */
  spentByPlayer: number | null;
};

export type RunSpec = { player: PlayerName; kbps: number; run: number; account: number };
export type RunResult = RunSpec & {
  ok: boolean;
  error?: string;
  mode?: string;
  firstFrameSeconds?: number;
  firstFrameHow?: string;
  stalls?: number;
  waits?: number;
  stallSeconds?: number;
  playedSeconds?: number;
  seekSeconds?: number | null;
  seekNote?: string;
  bytesBeforePlay?: number;
  bytesPerMinute?: number;
  rungsPlayed?: number[];
  rungsFetched?: number[];
  responses?: number;
  cacheAnswers?: number;
  mismatches?: number;
  mismatchDetail?: string[];
  checkpoints?: Checkpoint[];
  /** Everything the page fetched before play was pressed (finished answers, headers included). */
  pageBytesBeforePlay?: number;
  /** The cost the page showed before play, as MB per hour of film (a range, or one figure twice). */
  costShown?: { lowPerHour: number; highPerHour: number; text: string } | null;
  notes?: string[];
};

/** What the page keeps about the video from play() on (in the page: plain data, read back at the end). */
type PageState = {
  t0: number;
  startTime: number;
  frameAt: number | null;
  timeupdateAt: number | null;
  playingAt: number | null;
  /** `waiting` events after the first frame. */
  waits: number;
  /** Of those, the ones that kept the picture still for 100 ms or more. */
  stalls: number;
  stallMs: number;
  stallStart: number | null;
  lastTime: number;
  /** Seconds of film played: the sum of currentTime's forward steps between timeupdates (a jump is no playing). */
  played: number;
  playError: string | null;
  errors: string[];
  ended: boolean;
};
declare global {
  interface Window {
    __bench?: PageState;
  }
}

/** No MSE, as on an iPhone: the player takes the browser's native HLS. */
const HIDE_MSE = `(() => {
  for (const name of ["MediaSource", "ManagedMediaSource", "WebKitMediaSource"]) {
    Object.defineProperty(window, name, { value: undefined, configurable: true, writable: true });
  }
})();`;

/** A browser that says it cannot decode AV1 smoothly (as an older phone): the adaptive player on H.264 alone. */
const REFUSE_AV1 = `(() => {
  const capabilities = navigator.mediaCapabilities;
  if (!capabilities) return;
  const ask = capabilities.decodingInfo.bind(capabilities);
  capabilities.decodingInfo = async (configuration) =>
    configuration.video && configuration.video.contentType.includes("av01")
      ? { supported: false, smooth: false, powerEfficient: false }
      : ask(configuration);
})();`;

const PLAYER_SELECTOR = "video[data-testid=player]";
const PROGRESSIVE_SELECTOR = "video[data-bench=progressive]";

/** Data saver on for this viewer: through the switch's route (POST /data-saver), else straight in the account's column. */
async function turnOnDataSaver(url: string, root: string, cookie: string, spec: RunSpec): Promise<string> {
  const response = await fetch(`${url}/data-saver`, {
    method: "POST",
    body: new URLSearchParams({ dataSaver: "on", redirectTo: "/" }),
    redirect: "manual",
    headers: {
      Cookie: cookie,
      "X-Forwarded-For": `10.78.${Math.floor(spec.account / 250)}.${(spec.account % 250) + 2}`,
    },
  });
  const db = openDatabase(path.join(root, "data.db"));
  try {
    const account = db
      .select({ dataSaver: accounts.dataSaver })
      .from(accounts)
      .where(eq(accounts.id, viewerId(spec.account)))
      .get();
    if (account?.dataSaver === true) return "the route";
    db.update(accounts)
      .set({ dataSaver: true })
      .where(eq(accounts.id, viewerId(spec.account)))
      .run();
    return `the account's column (POST /data-saver answered ${response.status} and changed nothing)`;
  } finally {
    db.$client.close();
  }
}

export async function playbackRun(
  spec: RunSpec,
  server: RunningServer,
  root: string,
  movieId: string,
  filmSeconds: number,
  maps: ReadonlyMap<number, RungMap>,
  sourceBytes: number,
): Promise<RunResult> {
  const notes: string[] = [];
  let browser: Browser | undefined;
  try {
    const cookie = await signIn(server.url, "/login", viewerEmail(spec.account));
    if (DATA_SAVER) notes.push(`data saver via ${await turnOnDataSaver(server.url, root, cookie, spec)}`);
    browser = await chromium.launch({
      executablePath: CHROMIUM || undefined,
      args: TEST_CHROMIUM_ARGS,
    });
    const context = await browser.newContext({
      serviceWorkers: "block",
      viewport: { width: VIEW_WIDTH, height: VIEW_HEIGHT },
    });
    const [name, value] = [cookie.slice(0, cookie.indexOf("=")), cookie.slice(cookie.indexOf("=") + 1)];
    await context.addCookies([{ name, value, url: server.url, httpOnly: true, sameSite: "Lax", secure: false }]);
    // tsx compiles this file with esbuild's keepNames: functions passed to page.evaluate call its __name helper.
    await context.addInitScript({ content: "globalThis.__name = (target) => target;" });
    if (spec.player === "native") await context.addInitScript({ content: HIDE_MSE });
    if (spec.player === "adaptive-h264") await context.addInitScript({ content: REFUSE_AV1 });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: false });
    const bytesPerSecond = (spec.kbps * 1000) / 8;
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: LATENCY_MS,
      downloadThroughput: bytesPerSecond,
      uploadThroughput: bytesPerSecond,
    });
    const traffic = new MediaTraffic(cdp);
    // Everything the page fetched (document, scripts, styles, images, film), for "the page before play".
    let pageBytes = 0;
    cdp.on("Network.loadingFinished", (event) => {
      pageBytes += event.encodedDataLength;
    });

    const opened = Date.now();
    let seekStartedAt: number | null = null;
    const response = await page.goto(`${server.url}/WatchMovie?id=${movieId}`, { waitUntil: "load", timeout: 180_000 });
    if (!response || response.status() !== 200) throw new Error(`the watch page answered ${response?.status()}`);
    const loadSeconds = (Date.now() - opened) / 1000;

    let selector = PLAYER_SELECTOR;
    if (spec.player === "progressive") {
      await waitForHydration(page);
      const swapped = await page.evaluate((id) => {
        const old =
          document.querySelector<HTMLVideoElement>("video[data-testid=player]") ??
          document.querySelector<HTMLVideoElement>("video");
        if (!old) return "no video element on the watch page";
        // Nothing more from the page's own player: no source, nothing loading.
        old.pause();
        old.removeAttribute("src");
        for (const source of Array.from(old.querySelectorAll("source"))) source.remove();
        old.load();
        const video = document.createElement("video");
        video.preload = "metadata";
        video.controls = true;
        const poster = old.getAttribute("poster");
        if (poster) video.setAttribute("poster", poster);
        video.className = old.className;
        video.dataset.bench = "progressive";
        video.src = `/api/files/${id}.mp4`;
        old.replaceWith(video);
        return null;
      }, movieId);
      if (swapped) throw new Error(swapped);
      selector = PROGRESSIVE_SELECTOR;
    } else {
      const found = await page
        .waitForSelector(PLAYER_SELECTOR, { state: "attached", timeout: 30_000 })
        .catch(() => null);
      if (!found) throw new Error("no video[data-testid=player] on the watch page (is the adaptive player there yet?)");
      // The server renders data-player-mode="none"; the player's script sets the mode it attached.
      const attached = await page
        .waitForSelector(`${PLAYER_SELECTOR}[data-player-mode]:not([data-player-mode=none])`, {
          state: "attached",
          timeout: 60_000,
        })
        .catch(() => null);
      if (!attached) notes.push("no data-player-mode after 60 s");
      // A player that attaches the player when the viewer reaches for it (data-player-loads="on-intent") is
      // pressed after the settle like the others: the library's download (at idle, or at play with data
      // saver) is part of its first frame as far as it has not finished by then. One that fetches it with the
      // page is pressed once it has attached (a play() before its src is the player's blob: was lost).
      const loadsOnIntent =
        (await page.getAttribute(PLAYER_SELECTOR, "data-player-loads").catch(() => null)) === "on-intent";
      const fetchedWhenIdle =
        (await page.getAttribute(PLAYER_SELECTOR, "data-player-fetch").catch(() => null)) === "when-idle";
      if (loadsOnIntent)
        notes.push(
          fetchedWhenIdle
            ? "the player fetched once the page was idle, attached on play"
            : "the player fetched on play",
        );
      else if ((await page.getAttribute(PLAYER_SELECTOR, "data-player-mode").catch(() => null)) === "mse") {
        const hlsAttached = await page
          .waitForFunction(
            (sel) => document.querySelector<HTMLVideoElement>(sel)?.src.startsWith("blob:") ?? false,
            PLAYER_SELECTOR,
            { timeout: 60_000, polling: 100 },
          )
          .catch(() => null);
        notes.push(
          hlsAttached
            ? `the player attached ${((Date.now() - opened) / 1000 - loadSeconds).toFixed(1)} s after load`
            : "the player not attached 60 s after load",
        );
      }
    }
    await sleep(SETTLE_MS);
    if (!(await page.$(selector)))
      throw new Error(`${selector} is gone after the settle (the page re-rendered its player?)`);
    const streamBytesBefore =
      spec.player === "progressive"
        ? [...traffic.requests.values()].filter((request) => request.url.includes("/stream/")).length
        : 0;
    if (streamBytesBefore > 0)
      notes.push(`${streamBytesBefore} /stream requests by the page's own player before the swap`);
    const mode =
      spec.player === "progressive"
        ? "progressive"
        : await page.getAttribute(selector, "data-player-mode").catch(() => null);
    if (spec.player === "native" && mode !== "native") notes.push(`player mode ${mode}, not native`);
    if (spec.player.startsWith("adaptive") && mode !== "mse") notes.push(`player mode ${mode}`);

    // The cost shown before play.
    const shown = await page.evaluate(() => {
      const cost = document.querySelector("[data-testid=data-cost]");
      if (!cost) return null;
      const number = (name: string) => {
        const value = cost.getAttribute(name);
        return value === null || value === "" ? null : Number(value);
      };
      return {
        text: (cost.textContent ?? "").trim(),
        low: number("data-megabytes-per-hour-low"),
        high: number("data-megabytes-per-hour-high"),
        film: number("data-megabytes"),
      };
    });
    const filmHours = filmSeconds / 3600;
    const costShown = shown
      ? {
          text: shown.text,
          lowPerHour: shown.low ?? (shown.film ?? Number.NaN) / filmHours,
          highPerHour: shown.high ?? (shown.film ?? Number.NaN) / filmHours,
        }
      : null;

    /** Bytes against film now; `readAhead` is the stated read-ahead that applies. */
    const checkpoint = async (label: string, readAhead: number): Promise<Checkpoint> => {
      const view = await withTimeout(
        page.evaluate((sel) => {
          const video = document.querySelector<HTMLVideoElement>(sel);
          if (!video) return null;
          let ahead = 0;
          for (let index = 0; index < video.buffered.length; index++) {
            if (video.buffered.start(index) <= video.currentTime + 0.1 && video.buffered.end(index) > video.currentTime)
              ahead = video.buffered.end(index) - video.currentTime;
          }
          const spent = document.querySelector("[data-spent-bytes]")?.getAttribute("data-spent-bytes");
          return {
            position: video.currentTime,
            ahead,
            played: window.__bench?.played ?? 0,
            spent: spent ? Number(spent) : null,
          };
        }, selector),
        10_000,
        "reading the position",
      );
      if (!view) throw new Error("the video element went away");
      const fetched = traffic.bytes();
      const account =
        spec.player === "progressive" ? null : accountBytes(maps, traffic.fetchedRanges(), view.position, readAhead);
      return {
        label,
        playedSeconds: view.played,
        position: view.position,
        bufferedAhead: view.ahead,
        fetched,
        played: account ? account.played : (sourceBytes * view.position) / filmSeconds,
        allowance: account ? account.allowance : null,
        account,
        spentByPlayer: view.spent,
      };
    };
    const checkpoints: Checkpoint[] = [];

    // Press play.
    const bytesBeforePlay = traffic.bytes();
    const pageBytesBeforePlay = pageBytes;
    const playStarted = Date.now();
    const installed = await page.evaluate((sel) => {
      const video = document.querySelector<HTMLVideoElement>(sel);
      if (!video) return `no ${sel}`;
      const now = () => performance.now();
      const state: PageState = {
        t0: 0,
        startTime: video.currentTime,
        frameAt: null,
        timeupdateAt: null,
        playingAt: null,
        waits: 0,
        stalls: 0,
        stallMs: 0,
        stallStart: null,
        lastTime: video.currentTime,
        played: 0,
        playError: null,
        errors: [],
        ended: false,
      };
      window.__bench = state;
      const firstSeen = () => state.frameAt ?? state.timeupdateAt ?? state.playingAt;
      const endStall = () => {
        if (state.stallStart !== null) {
          const stalled = now() - state.stallStart;
          state.stallMs += stalled;
          if (stalled >= 100) state.stalls++;
          state.stallStart = null;
        }
      };
      if (typeof video.requestVideoFrameCallback === "function") {
        video.requestVideoFrameCallback(() => {
          state.frameAt ??= now() - state.t0;
        });
      }
      video.addEventListener("timeupdate", () => {
        const step = video.currentTime - state.lastTime;
        if (!video.paused && !video.seeking && step > 0) {
          state.timeupdateAt ??= now() - state.t0;
          endStall();
          if (step < 2) state.played += step;
        }
        state.lastTime = video.currentTime;
      });
      video.addEventListener("playing", () => {
        if (video.readyState >= 3) state.playingAt ??= now() - state.t0;
        endStall();
      });
      video.addEventListener("waiting", () => {
        if (firstSeen() === null || video.seeking || state.stallStart !== null) return;
        state.waits++;
        state.stallStart = now();
      });
      video.addEventListener("error", () =>
        state.errors.push(`media error ${video.error?.code}: ${video.error?.message ?? ""}`),
      );
      video.addEventListener("ended", () => (state.ended = true));
      state.t0 = now();
      video.play().catch((error: unknown) => {
        state.playError = String(error);
      });
      return null;
    }, selector);
    if (installed) throw new Error(installed);

    // The play window: sample the position and the rung once a second.
    const rungSamples = new Set<number>();
    let lastTime = -1;
    while (Date.now() - playStarted < PLAY_SECONDS * 1000) {
      await sleep(Math.min(1000, PLAY_SECONDS * 1000 - (Date.now() - playStarted)));
      const sample = await withTimeout(
        page.evaluate((sel) => {
          const video = document.querySelector<HTMLVideoElement>(sel);
          return video
            ? {
                time: video.currentTime,
                rung: video.dataset.rung ?? null,
                av1: video.dataset.av1 === "1",
                ended: video.ended,
              }
            : null;
        }, selector),
        10_000,
        "sampling the video",
      );
      if (!sample) throw new Error("the video element went away during play");
      // AV1 rungs as negative numbers, as filmRung counts them.
      if (sample.time > lastTime && lastTime >= 0 && sample.rung && Number(sample.rung) > 0)
        rungSamples.add(Number(sample.rung) * (sample.av1 ? -1 : 1));
      lastTime = sample.time;
      if (sample.ended) break;
      if (checkpoints.length === 0 && Date.now() - playStarted >= EARLY_CHECK_SECONDS * 1000)
        checkpoints.push(await checkpoint(`${EARLY_CHECK_SECONDS} s`, STATED_READ_AHEAD));
    }
    const windowSeconds = (Date.now() - playStarted) / 1000;
    checkpoints.push(await checkpoint(`${PLAY_SECONDS} s`, STATED_READ_AHEAD));
    const bytesDuringPlay = traffic.bytes() - bytesBeforePlay;
    const state = await page.evaluate(() => {
      const state = window.__bench!;
      const video =
        document.querySelector<HTMLVideoElement>("video[data-bench=progressive]") ??
        document.querySelector<HTMLVideoElement>("video[data-testid=player]");
      const open = state.stallStart !== null ? performance.now() - state.stallStart : 0;
      return {
        ...state,
        stallMs: state.stallMs + open,
        stalls: state.stalls + (open >= 100 ? 1 : 0),
        currentTime: video?.currentTime ?? 0,
        duration: video?.duration ?? 0,
        rung: video?.dataset.rung ?? null,
      };
    });
    const firstFrameMs = state.frameAt ?? state.timeupdateAt ?? state.playingAt;
    const firstFrameHow = state.frameAt !== null ? "frame" : state.timeupdateAt !== null ? "timeupdate" : "playing";
    if (state.playError) notes.push(`play(): ${state.playError}`);
    if (state.errors.length > 0) notes.push(state.errors.join("; "));
    const playedSeconds = state.played;
    const result: RunResult = {
      ...spec,
      ok: firstFrameMs !== null && firstFrameMs <= FIRST_FRAME_TIMEOUT_MS,
      mode: mode ?? undefined,
      firstFrameSeconds: firstFrameMs !== null ? seconds(firstFrameMs) : undefined,
      firstFrameHow,
      stalls: state.stalls,
      waits: state.waits,
      stallSeconds: seconds(state.stallMs),
      // Scaled to the issue's 120 s when the window was cut short by the film's end.
      playedSeconds: (playedSeconds * PLAY_SECONDS) / Math.max(windowSeconds, 1e-3),
      bytesBeforePlay,
      bytesPerMinute: playedSeconds > 0 ? bytesDuringPlay / (playedSeconds / 60) : Number.NaN,
      rungsPlayed: [...rungSamples].sort((a, b) => a - b),
      notes,
    };
    if (!result.ok)
      result.error =
        firstFrameMs === null
          ? `no first frame in ${windowSeconds.toFixed(0)} s of play`
          : `first frame after ${fmt(seconds(firstFrameMs))} s`;
    notes.push(`page load ${loadSeconds.toFixed(1)} s`);
    if (Math.abs(state.currentTime - state.startTime - playedSeconds) > 2)
      notes.push(`position ${state.startTime.toFixed(1)} → ${state.currentTime.toFixed(1)} s`);

    // The pause: what the player fetches while nobody watches (what it holds stays within the playing read-ahead).
    if (PAUSE_SECONDS > 0 && firstFrameMs !== null) {
      await page.evaluate((sel) => document.querySelector<HTMLVideoElement>(sel)?.pause(), selector);
      await sleep(PAUSE_SECONDS * 1000);
      checkpoints.push(await checkpoint(`paused ${PAUSE_SECONDS} s`, STATED_READ_AHEAD));
    }
    result.checkpoints = checkpoints;
    result.costShown = costShown;
    result.pageBytesBeforePlay = pageBytesBeforePlay;

    // The seek: minute 15, or three quarters of a shorter film.
    if (firstFrameMs !== null) {
      const target = SEEK_TO ?? (filmSeconds > 15 * 60 + 30 ? 15 * 60 : Math.floor(filmSeconds * 0.75));
      seekStartedAt = Date.now();
      const seek = await withTimeout(
        page.evaluate(
          ([sel, to, timeoutMs]) =>
            new Promise<{ ok: boolean; seekedMs: number | null; playingMs: number | null; landed: number }>(
              (resolve) => {
                const video = document.querySelector<HTMLVideoElement>(sel as string)!;
                const t0 = performance.now();
                let seekedMs: number | null = null;
                let base = 0;
                // With requestVideoFrameCallback: also a frame of the new position on screen after seeked.
                const frames = typeof video.requestVideoFrameCallback === "function";
                let framed = !frames;
                const onFrame = (_now: number, metadata: VideoFrameCallbackMetadata) => {
                  if (seekedMs !== null && metadata.mediaTime >= base - 0.5) framed = true;
                  else video.requestVideoFrameCallback(onFrame);
                };
                if (frames) video.requestVideoFrameCallback(onFrame);
                const finish = (ok: boolean) => {
                  clearInterval(poll);
                  clearTimeout(timer);
                  video.removeEventListener("timeupdate", check);
                  resolve({ ok, seekedMs, playingMs: ok ? performance.now() - t0 : null, landed: video.currentTime });
                };
                const check = () => {
                  if (seekedMs !== null && framed && !video.paused && !video.seeking && video.currentTime > base + 0.04)
                    finish(true);
                };
                video.addEventListener(
                  "seeked",
                  () => {
                    seekedMs = performance.now() - t0;
                    base = video.currentTime;
                  },
                  { once: true },
                );
                video.addEventListener("timeupdate", check);
                const poll = setInterval(check, 50);
                const timer = setTimeout(() => finish(false), timeoutMs as number);
                video.currentTime = to as number;
                if (video.paused) void video.play().catch(() => undefined);
              },
            ),
          [selector, target, SEEK_TIMEOUT_MS] as const,
        ),
        SEEK_TIMEOUT_MS + 15_000,
        "the seek",
      );
      result.seekSeconds = seek.ok && seek.playingMs !== null ? seconds(seek.playingMs) : null;
      if (!seek.ok)
        result.seekNote = `no playing after the seek in ${SEEK_TIMEOUT_MS / 1000} s (seeked ${seek.seekedMs === null ? "never" : `after ${fmt(seconds(seek.seekedMs))} s`})`;
      else if (Math.abs(seek.landed - target) > 10)
        result.seekNote = `landed at ${seek.landed.toFixed(1)} s, not ${target} s`;
    }

    const all = [...traffic.requests.values()];
    const mismatches = traffic.mismatches();
    result.rungsFetched = traffic.rungsFetched();
    result.responses = traffic.checkable().length;
    result.cacheAnswers = all.filter((request) => request.fromCache).length;
    result.mismatches = mismatches.length;
    result.mismatchDetail = mismatches.map(
      (request) =>
        `${request.path} ${request.status}${request.fromCache ? " (cache)" : ""}: ${request.bodyBytes} of ${request.expectedBytes} bytes`,
    );
    if (VERBOSE) {
      for (const request of all) {
        const url = new URL(request.url);
        const at = (time: number | null) => (time === null ? "…" : ((time - opened) / 1000).toFixed(2));
        const sinceSeek =
          seekStartedAt === null || request.sentAt < seekStartedAt
            ? ""
            : ` (seek +${((request.sentAt - seekStartedAt) / 1000).toFixed(2)} s)`;
        result.notes?.push(
          `\n      ${at(request.sentAt)}–${at(request.endedAt)} s${sinceSeek} ${request.state} ${request.status} ${url.pathname}${url.search} ${request.range} ${request.bodyBytes}/${request.expectedBytes ?? "?"} bytes${request.compressed ? " compressed" : ""}${request.fromCache ? " cache" : ""}`,
        );
      }
    }
    await cdp.detach().catch(() => undefined);
    return result;
  } catch (error) {
    return { ...spec, ok: false, error: error instanceof Error ? error.message.split("\n")[0] : String(error), notes };
  } finally {
    await browser?.close().catch(() => undefined);
  }
}

/** React has taken the page's video element (or the player says it is attached). */
async function waitForHydration(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () => {
        const video = document.querySelector("video[data-testid=player]") ?? document.querySelector("video");
        if (!video) return false;
        const mode = video.getAttribute("data-player-mode");
        return mode ? mode !== "none" : Object.keys(video).some((key) => key.startsWith("__reactFiber"));
      },
      undefined,
      { timeout: 60_000, polling: 100 },
    )
    .catch(() => undefined);
}
