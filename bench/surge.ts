/**
 * `npm run bench:surge` (after `npm run build`): release night on a box with WORKERS=2.
 *
 * 1. The box's capacity: signed-in catalogue and watch pages asked by 8 clients at once for
 *    BENCH_SURGE_SECONDS, answered per second.
 * 2. A release-night mix arriving at 1×, 2× and 4× that rate, each for BENCH_SURGE_SECONDS: pages (the
 *    catalogue, a category, a search, a watch page) 75 %, sign-ins on new devices 20 % (right passwords),
 *    new uploads 5 % (a file the server must read and judge) — while BENCH_SURGE_PLAYERS films are already
 *    playing: each reads 512 kB of its film every 2 s (about 2 Mbit/s); a read that takes longer than 2 s
 *    is a stall.
 * 3. Per class: served, 503 with Retry-After, other 5xx, refused or reset connections, p50 and p99 (s),
 *    and answers later than their deadline counted from the request (a page 15 s, a sign-in 60 s, an
 *    upload 30 s); for the players, stalls.
 *
 * BENCH_SERVER_CWD runs another checkout's build (its `build/`) for a before/after.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { eq } from "drizzle-orm";
import { accounts, movies } from "../app/db/schema";
import { movieVideoPath } from "../app/media/storage.server";
import { seedBulkCatalogue } from "./catalogue-seed";
import { percentile, prepareStorage, signIn, startServer, PASSWORD } from "./lib";

const SECONDS = Number(process.env.BENCH_SURGE_SECONDS ?? 20);
const PLAYERS = Number(process.env.BENCH_SURGE_PLAYERS ?? 20);
const MULTIPLES = (process.env.BENCH_SURGE_MULTIPLES ?? "1,2,4").split(",").map(Number);
const DEADLINE_S = { page: 15, signin: 60, upload: 30 } as const;
type Kind = keyof typeof DEADLINE_S;

const { root, db } = await prepareStorage("surge");
const template = db.select().from(accounts).where(eq(accounts.id, "benchviewer0001")).get()!;
const SIGN_INS = 4_000;
db.$client.transaction(() => {
  for (let i = 0; i < SIGN_INS; i++)
    db.insert(accounts)
      .values({ ...template, id: `surgeviewer${String(i).padStart(5, "0")}`, email: `surge${i}@bench.test` })
      .run();
})();
const catalogue = seedBulkCatalogue(db, {
  count: 400,
  providerIds: ["benchprovider01"],
  viewerIds: ["benchviewer0001"],
});
// The films already playing: one file each, read in ranges as the player and a download read them.
const FILM_BYTES = 64 * 1024 * 1024;
const playing = Array.from({ length: PLAYERS }, (_, i) => `surgeplaying${String(i).padStart(4, "0")}`);
const filmBytes = Buffer.alloc(FILM_BYTES, 7);
for (const id of playing) {
  fs.mkdirSync(path.dirname(movieVideoPath(id, root)), { recursive: true });
  fs.writeFileSync(movieVideoPath(id, root), filmBytes);
  db.insert(movies)
    .values({
      id,
      name: `Playing ${id}`,
      categoryId: catalogue.categoryIds[0],
      providerId: "benchprovider01",
      status: "ready",
      approved: true,
      videoFile: `${id}.mp4`,
      sizeBytes: FILM_BYTES,
    })
    .run();
}

const server = await startServer(root, 3480, {
  env: { WORKERS: "2" },
  cwd: process.env.BENCH_SERVER_CWD,
});
const viewerCookie = await signIn(server.url, "/login", "viewer@bench.test");
const providerCookie = await signIn(server.url, "/cp", "provider@bench.test");

type Answer = { kind: Kind | "player"; status: number; ms: number; retryAfter: boolean; error?: string };
// As many connections as there are requests under way: a surge is many phones, each with its own.
const agent = new http.Agent({ keepAlive: true });

function ask(
  kind: Answer["kind"],
  urlPath: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: Buffer | string;
    timeoutMs?: number;
    via?: http.Agent;
  } = {},
): Promise<Answer> {
  const started = performance.now();
  return new Promise<Answer>((resolve) => {
    const done = (status: number, retryAfter: boolean, error?: string) =>
      resolve({ kind, status, ms: performance.now() - started, retryAfter, error });
    const request = http.request(
      `${server.url}${urlPath}`,
      {
        agent: options.via ?? agent,
        method: options.method ?? "GET",
        headers: { "Accept-Encoding": "identity", ...options.headers },
      },
      (response) => {
        response.on("data", () => undefined);
        response.on("end", () => done(response.statusCode ?? 0, response.headers["retry-after"] !== undefined));
        response.on("error", (error) => done(0, false, (error as NodeJS.ErrnoException).code ?? error.message));
      },
    );
    request.setTimeout(options.timeoutMs ?? 120_000, () => request.destroy(new Error("timeout")));
    request.on("error", (error) => done(0, false, (error as NodeJS.ErrnoException).code ?? error.message));
    request.end(options.body);
  });
}

let pageTurn = 0;
function askPage(): Promise<Answer> {
  const i = pageTurn++;
  const paths = [
    "/movies",
    `/moviecategory?id=${catalogue.categoryIds[i % catalogue.categoryIds.length]}`,
    `/moviecategory?q=${encodeURIComponent(catalogue.searchWords[i % catalogue.searchWords.length])}`,
    `/WatchMovie?id=${catalogue.movieIds[i % catalogue.movieIds.length]}`,
  ];
  return ask("page", paths[i % paths.length], { headers: { Cookie: viewerCookie } });
}
let signInTurn = 0;
function askSignIn(): Promise<Answer> {
  const i = signInTurn++ % SIGN_INS;
  return ask("signin", "/login", {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      // Each from its own phone on its own network: no per-address limit in play, only the box's capacity.
      "X-Forwarded-For": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    },
    body: new URLSearchParams({ email: `surge${i}@bench.test`, password: PASSWORD }).toString(),
  });
}
const notAFilm = Buffer.alloc(256 * 1024, 3);
function askUpload(): Promise<Answer> {
  const boundary = "surgeboundary";
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nSurge upload\r\n--${boundary}\r\nContent-Disposition: form-data; name="Category"\r\n\r\n${catalogue.categoryIds[0]}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="surge.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    ),
    notAFilm,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return ask("upload", "/provider/Movieupload", {
    method: "POST",
    headers: {
      Cookie: providerCookie,
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
      "Content-Length": String(body.length),
    },
    body,
  });
}

/** Films already playing: each reads 512 kB every 2 s from where it is; a read over 2 s is a stall. */
function play(stopAt: number): Promise<Answer[]> {
  return Promise.all(
    playing.map(async (id, index) => {
      const answers: Answer[] = [];
      // A phone playing a film keeps its own connection.
      const own = new http.Agent({ keepAlive: true, maxSockets: 1 });
      let offset = (index * 4 * 1024 * 1024) % FILM_BYTES;
      while (performance.now() < stopAt) {
        const started = performance.now();
        const end = Math.min(FILM_BYTES - 1, offset + 512 * 1024 - 1);
        answers.push(
          await ask("player", `/api/files/${id}.mp4`, {
            headers: { Cookie: viewerCookie, Range: `bytes=${offset}-${end}` },
            timeoutMs: 30_000,
            via: own,
          }),
        );
        offset = end + 1 >= FILM_BYTES ? 0 : end + 1;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, 2_000 - (performance.now() - started))));
      }
      own.destroy();
      return answers;
    }),
  ).then((lists) => lists.flat());
}

async function measureCapacity(): Promise<number> {
  const stopAt = performance.now() + SECONDS * 1000;
  let served = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (performance.now() < stopAt) if ((await askPage()).status === 200) served += 1;
    }),
  );
  return served / SECONDS;
}

async function surge(rate: number): Promise<Answer[]> {
  const stopAt = performance.now() + SECONDS * 1000;
  const players = play(stopAt);
  const asked: Promise<Answer>[] = [];
  const started = performance.now();
  for (let n = 0; ; n++) {
    const at = started + (n / rate) * 1000;
    if (at >= stopAt) break;
    const wait = at - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const pick = n % 20;
    asked.push(pick < 15 ? askPage() : pick < 19 ? askSignIn() : askUpload());
  }
  return [...(await Promise.all(asked)), ...(await players)];
}

function report(label: string, answers: Answer[]): void {
  console.log(`\n${label}`);
  console.log(
    "class    | asked | served | 503+Retry-After | other 5xx | refused/reset | p50 s | p99 s | late | stalls",
  );
  for (const kind of ["page", "signin", "upload", "player"] as const) {
    const mine = answers.filter((answer) => answer.kind === kind);
    if (!mine.length) continue;
    const busy = mine.filter((answer) => answer.status === 503 && answer.retryAfter).length;
    const other5xx = mine.filter(
      (answer) => answer.status >= 500 && !(answer.status === 503 && answer.retryAfter),
    ).length;
    const broken = mine.filter((answer) => answer.status === 0).length;
    const served = mine.filter((answer) => answer.status > 0 && answer.status < 500).length;
    const times = mine.filter((answer) => answer.status > 0).map((answer) => answer.ms / 1000);
    const late = kind === "player" ? "-" : String(mine.filter((answer) => answer.ms / 1000 > DEADLINE_S[kind]).length);
    const stalls =
      kind === "player" ? String(mine.filter((answer) => answer.status !== 206 || answer.ms > 2_000).length) : "-";
    console.log(
      `${kind.padEnd(8)} | ${String(mine.length).padStart(5)} | ${String(served).padStart(6)} | ${String(busy).padStart(15)} | ${String(other5xx).padStart(9)} | ${String(broken).padStart(13)} | ${(times.length ? percentile(times, 50) : 0).toFixed(2).padStart(5)} | ${(times.length ? percentile(times, 99) : 0).toFixed(2).padStart(5)} | ${late.padStart(4)} | ${stalls}`,
    );
    const errors = [...new Set(mine.flatMap((answer) => (answer.error ? [answer.error] : [])))];
    if (errors.length) console.log(`         connection errors: ${errors.join(", ")}`);
  }
}

try {
  const capacity = await measureCapacity();
  console.log(
    `capacity: ${capacity.toFixed(1)} signed-in pages a second (8 at once, ${SECONDS} s, WORKERS=2${process.env.BENCH_SERVER_CWD ? `, build of ${process.env.BENCH_SERVER_CWD}` : ""})`,
  );
  for (const multiple of MULTIPLES) {
    const rate = capacity * multiple;
    const answers = await surge(rate);
    report(
      `${multiple}× capacity: ${rate.toFixed(1)} requests a second for ${SECONDS} s, ${PLAYERS} films playing`,
      answers,
    );
    // The box settles between multiples.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  }
} finally {
  agent.destroy();
  await server.stop();
}
