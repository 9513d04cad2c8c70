import fs from "node:fs";
import path from "node:path";
import { probeMedia } from "../app/media/ffmpeg.server";
import { rungName } from "../app/media/ladder";
import { setSetting } from "../app/services/settings.server";
import { prepareStorage, startServer } from "./lib";
import { measureLadderQuality, printLadderQuality } from "./ladder-quality";
import { rungMap, type RungMap } from "./playback-bytes";
import {
  ensureViewers,
  ensureWatchable,
  makeFilm,
  printEncodeFigures,
  type EncodeFigures,
  uploadAndProcess,
} from "./playback-film";
import {
  FIGURES_FILE,
  FILM_MINUTES,
  KEEP,
  PARALLEL,
  PLAYERS,
  PLAY_SECONDS,
  PORT,
  RUNS,
  SPEEDS,
  type PlayerName,
  withTimeout,
} from "./playback-settings";
import { playbackRun, type RunResult, type RunSpec } from "./playback-run";
import { describeRun, printTable } from "./playback-report";

// ---------------------------------------------------------------------------
// Main

const specs: RunSpec[] = [];
// Runs interleaved (every player and speed once, then again), so a slow minute of the machine hits all alike.
for (let run = 0; run < RUNS; run++) {
  for (const player of PLAYERS as PlayerName[])
    for (const kbps of SPEEDS) specs.push({ player, kbps, run, account: specs.length });
}

let root: string;
let figures: EncodeFigures | null = null;
const reusing = Boolean(KEEP && KEEP !== "1" && fs.existsSync(path.join(KEEP, FIGURES_FILE)));
if (reusing) {
  root = KEEP!;
  figures = JSON.parse(fs.readFileSync(path.join(root, FIGURES_FILE), "utf8")) as EncodeFigures;
  console.log(`reusing the processed storage ${root} (title ${figures.movieId}, a ${figures.filmMinutes}-minute film)`);
} else {
  const prepared = await prepareStorage("playback");
  root = prepared.root;
  setSetting(prepared.db, "autoApproveMovies", true);
  prepared.db.$client.close();
}
ensureViewers(root, specs.length);

const film = reusing ? null : await makeFilm(FILM_MINUTES);
const server = await startServer(root, PORT);
try {
  if (!figures) {
    const durationSeconds = (await probeMedia(film!)).durationSeconds;
    figures = await uploadAndProcess(server, root, film!, durationSeconds);
    fs.writeFileSync(path.join(root, FIGURES_FILE), JSON.stringify(figures, null, 2));
  }
  printEncodeFigures(figures, reusing);
  ensureWatchable(root, figures.movieId);

  console.log(
    `\n${specs.length} playback runs (${PLAYERS.join(", ")} × ${SPEEDS.join(", ")} kbps × ${RUNS}), ${PARALLEL} at a time, ${PLAY_SECONDS} s of play each`,
  );
  const results: RunResult[] = [];
  let next = 0;
  const movieId = figures.movieId;
  const filmSeconds = figures.durationSeconds;
  // Each rung's segments (time and byte range), to tell bytes played from bytes read ahead.
  const maps = new Map<number, RungMap>();
  for (const rung of figures.rungs) {
    const codec = rung.codec ?? "h264";
    const playlist = path.join(root, "media", movieId, "hls", `${rungName(rung.rung, codec)}.m3u8`);
    // AV1 rungs go by negative numbers in the bench (filmRung).
    const key = codec === "av1" ? -rung.rung : rung.rung;
    if (fs.existsSync(playlist)) maps.set(key, rungMap(key, fs.readFileSync(playlist, "utf8"), rung.bandwidth));
  }
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, specs.length) }, async () => {
      while (next < specs.length) {
        const spec = specs[next++];
        // The whole run is bounded too: page load, play window, seek and margins.
        const result = await withTimeout(
          playbackRun(spec, server, root, movieId, filmSeconds, maps, figures!.sourceBytes),
          600_000 + PLAY_SECONDS * 1000,
          `${spec.player} ${spec.kbps} kbps run`,
        ).catch((error: unknown): RunResult => ({
          ...spec,
          ok: false,
          error: error instanceof Error ? error.message : String(error),
        }));
        results.push(result);
        console.log(describeRun(result));
      }
    }),
  );
  printTable(results);
  // Each rung's picture against the source and its encode time, on the same film (after the playback
  // runs, so its encoders take no CPU from them). BENCH_QUALITY=0 leaves it out.
  if (process.env.BENCH_QUALITY !== "0") {
    const source = film ?? (await makeFilm(FILM_MINUTES));
    printLadderQuality(path.basename(source), await measureLadderQuality(source));
  }
} finally {
  await server.stop();
  if (KEEP) console.log(`\nstorage kept: rerun with BENCH_KEEP_STORAGE=${root} to skip the upload and the ladder`);
  else fs.rmSync(root, { recursive: true, force: true });
}
