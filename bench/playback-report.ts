/** The playback bench's report: each run in a line, the bytes against film, and the table of every player and speed with the issue's goals. */
import {
  DATA_SAVER,
  DATA_SAVER_MB_PER_HOUR,
  LATENCY_MS,
  PAUSE_SECONDS,
  PLAYERS,
  PLAY_SECONDS,
  RUNS,
  SPEEDS,
  STATED_READ_AHEAD,
  fmt,
  max,
  mean,
  p50,
  rungLabel,
  type PlayerName,
} from "./playback-settings";
import { type Checkpoint, type RunResult } from "./playback-run";

export function describeRun(result: RunResult): string {
  const label = `[${result.player} ${result.kbps} kbps #${result.run + 1}]`;
  if (!result.ok && result.firstFrameSeconds === undefined)
    return `${label} FAILED: ${result.error}${result.notes?.length ? ` (${result.notes.join("; ")})` : ""}`;
  const rungs = result.rungsPlayed?.length
    ? result.rungsPlayed.map(rungLabel).join("→")
    : result.rungsFetched?.length
      ? `fetched ${result.rungsFetched.map(rungLabel).join(",")}`
      : "–";
  return (
    `${label}${result.ok ? "" : ` FAILED (${result.error})`} first frame ${fmt(result.firstFrameSeconds, 2)} s (${result.firstFrameHow}), ${result.stalls} stalls (${fmt(result.stallSeconds)} s, ${result.waits} waiting), ` +
    `played ${fmt(result.playedSeconds, 0)} s per ${PLAY_SECONDS} s, seek ${fmt(result.seekSeconds, 2)} s${result.seekNote ? ` (${result.seekNote})` : ""}, ` +
    `${fmt((result.bytesBeforePlay ?? 0) / 1024, 0)} KB before play, ${fmt((result.bytesPerMinute ?? Number.NaN) / 1e6, 2)} MB/min played, rungs ${rungs}, mode ${result.mode ?? "–"}, ` +
    `${result.mismatches}/${result.responses} checked sizes wrong, ${result.cacheAnswers} from cache${result.notes?.length ? `; ${result.notes.join("; ")}` : ""}` +
    (result.mismatchDetail?.length ? `\n    mismatches: ${result.mismatchDetail.slice(0, 5).join(" | ")}` : "") +
    (result.checkpoints ?? []).map((point) => `\n    ${describeCheckpoint(point)}`).join("") +
    (result.costShown
      ? `\n    cost shown before play: "${result.costShown.text}" = ${fmt(result.costShown.lowPerHour, 0)}–${fmt(result.costShown.highPerHour, 0)} MB/h`
      : "")
  );
}

const mb = (bytes: number | null | undefined) => fmt(bytes === null || bytes === undefined ? null : bytes / 1e6, 2);

function describeCheckpoint(point: Checkpoint): string {
  const within = point.allowance === null ? "" : point.fetched <= point.played + point.allowance ? " ✓" : " ✗";
  const parts = [
    `${point.label}: at ${fmt(point.position)} s (${fmt(point.playedSeconds)} s played), ${fmt(point.bufferedAhead)} s buffered ahead`,
    `fetched ${mb(point.fetched)} MB vs played ${mb(point.played)} MB + read-ahead ${point.allowance === null ? "(none stated)" : `${mb(point.allowance)} MB${within}`}`,
  ];
  if (point.account)
    parts.push(
      `ahead ${mb(point.account.ahead)} MB = ${fmt(point.account.aheadSeconds)} s, fetched twice ${mb(point.account.refetched)} MB, init ${fmt(point.account.init / 1000)} kB`,
    );
  if (point.spentByPlayer !== null)
    parts.push(
      `the player counted ${mb(point.spentByPlayer)} MB (${fmt((point.spentByPlayer / point.fetched) * 100, 0)} % of CDP)`,
    );
  return parts.join("; ");
}

/** MB fetched per hour of film played, at a checkpoint (what this viewer pays per hour, read-ahead included). */
function paidPerHour(point: Checkpoint | undefined): number {
  return point && point.playedSeconds > 0 ? point.fetched / 1e6 / (point.playedSeconds / 3600) : Number.NaN;
}

function printBytesTables(results: RunResult[]): void {
  console.log(
    `\nBytes fetched (since the page opened) against film played + the stated read-ahead (${STATED_READ_AHEAD} s${DATA_SAVER ? ", data saver" : ""}), MB, mean of the runs`,
  );
  console.log(
    "player        kbps  check        fetched  played  ahead s  buffered s  read-ahead  twice  within  player's count",
  );
  for (const player of PLAYERS as PlayerName[]) {
    for (const kbps of SPEEDS) {
      const runs = results.filter((result) => result.ok && result.player === player && result.kbps === kbps);
      const labels = [...new Set(runs.flatMap((result) => (result.checkpoints ?? []).map((point) => point.label)))];
      for (const label of labels) {
        const points = runs
          .map((result) => result.checkpoints?.find((point) => point.label === label))
          .filter((point): point is Checkpoint => Boolean(point));
        const allowances = points.map((point) => point.allowance).filter((value): value is number => value !== null);
        const within = allowances.length
          ? `${points.filter((point) => point.allowance !== null && point.fetched <= point.played + point.allowance).length}/${points.length}`
          : "–";
        const counted = points.filter((point) => point.spentByPlayer !== null);
        console.log(
          [
            player.padEnd(12),
            String(kbps).padStart(5),
            label.padEnd(11),
            mb(mean(points.map((point) => point.fetched))).padStart(8),
            mb(mean(points.map((point) => point.played))).padStart(7),
            fmt(mean(points.map((point) => point.account?.aheadSeconds ?? Number.NaN))).padStart(8),
            fmt(mean(points.map((point) => point.bufferedAhead))).padStart(11),
            (allowances.length ? mb(mean(allowances)) : "–").padStart(11),
            mb(mean(points.map((point) => point.account?.refetched ?? Number.NaN))).padStart(6),
            within.padStart(7),
            counted.length
              ? `${fmt(mean(counted.map((point) => (point.spentByPlayer! / point.fetched) * 100)), 0)} % of CDP`.padStart(
                  16,
                )
              : "–".padStart(16),
          ].join("  "),
        );
      }
      const pauses = runs
        .map((result) => {
          const points = result.checkpoints ?? [];
          const paused = points.find((point) => point.label.startsWith("paused"));
          const before = points[points.indexOf(paused!) - 1];
          return paused && before ? paused.fetched - before.fetched : Number.NaN;
        })
        .filter(Number.isFinite);
      if (pauses.length)
        console.log(`${" ".repeat(21)}fetched during the ${PAUSE_SECONDS} s pause: ${mb(mean(pauses))} MB`);
    }
  }

  console.log(
    `\nCost shown before play against cost measured (MB per hour of film played at the end of the ${PLAY_SECONDS} s window, read-ahead included; played: the rungs' own rate)`,
  );
  for (const player of PLAYERS as PlayerName[]) {
    for (const kbps of SPEEDS) {
      const runs = results.filter((result) => result.ok && result.player === player && result.kbps === kbps);
      if (runs.length === 0) continue;
      const ends = runs.map((result) => result.checkpoints?.find((point) => point.label === `${PLAY_SECONDS} s`));
      const paid = mean(ends.map(paidPerHour).filter(Number.isFinite));
      const played = mean(
        ends
          .filter((point): point is Checkpoint => Boolean(point && point.playedSeconds > 0))
          .map((point) => point.played / 1e6 / (point.playedSeconds / 3600)),
      );
      const shown = runs.map((result) => result.costShown).filter(Boolean) as NonNullable<RunResult["costShown"]>[];
      const low = mean(shown.map((cost) => cost.lowPerHour));
      const high = mean(shown.map((cost) => cost.highPerHour));
      // The shown figure is the film's rate; what was paid after 120 s also holds the read-ahead (up to 30 s).
      const inRange = Number.isFinite(played) && played >= low * 0.8 && played <= high * 1.2;
      const pageKb = mean(
        runs.map((result) => (result.pageBytesBeforePlay ?? Number.NaN) / 1000).filter(Number.isFinite),
      );
      console.log(
        `  ${player} @ ${kbps} kbps: the page before play ${fmt(pageKb, 0)} kB; shown ${fmt(low, 0)}${high !== low ? `–${fmt(high, 0)}` : ""} MB/h ("${shown[0]?.text ?? "–"}"); paid ${fmt(paid, 0)} MB/h (played ${fmt(played, 0)} MB/h): ${inRange ? "played within 20 % of what was shown ✓" : `played ${fmt(played / high, 2)}× the top of what was shown ✗`}${DATA_SAVER ? `; data saver ${fmt(paid, 0)} MB/h (goal ≤ ${DATA_SAVER_MB_PER_HOUR}) ${paid <= DATA_SAVER_MB_PER_HOUR ? "✓" : "✗"}` : ""}`,
      );
    }
  }
}

// ---------------------------------------------------------------------------
// 4. The table

type Summary = {
  player: PlayerName;
  kbps: number;
  runs: number;
  ok: number;
  ffP50: number;
  ffMax: number;
  stallsMean: number;
  stallsMax: number;
  stallSecondsMean: number;
  played: number;
  seekP50: number;
  seekMax: number;
  kbBeforePlay: number;
  mbPerMinute: number;
  rungs: string;
  mismatches: number;
};

function summarise(player: PlayerName, kbps: number, results: RunResult[]): Summary {
  const ok = results.filter((result) => result.ok);
  const numbers = (pick: (result: RunResult) => number | null | undefined) =>
    ok.map(pick).filter((value): value is number => typeof value === "number" && Number.isFinite(value));
  const rungCounts = new Map<number, number>();
  for (const result of ok)
    for (const rung of result.rungsPlayed?.length ? result.rungsPlayed : (result.rungsFetched ?? []))
      rungCounts.set(rung, (rungCounts.get(rung) ?? 0) + 1);
  return {
    player,
    kbps,
    runs: results.length,
    ok: ok.length,
    ffP50: p50(numbers((result) => result.firstFrameSeconds)),
    ffMax: max(numbers((result) => result.firstFrameSeconds)),
    stallsMean: mean(numbers((result) => result.stalls)),
    stallsMax: max(numbers((result) => result.stalls)),
    stallSecondsMean: mean(numbers((result) => result.stallSeconds)),
    played: mean(numbers((result) => (result.playedSeconds ?? 0) * (120 / PLAY_SECONDS))),
    seekP50: p50(numbers((result) => result.seekSeconds)),
    seekMax: max(numbers((result) => result.seekSeconds)),
    kbBeforePlay: p50(numbers((result) => (result.bytesBeforePlay ?? Number.NaN) / 1024)),
    mbPerMinute: mean(numbers((result) => (result.bytesPerMinute ?? Number.NaN) / 1e6)),
    rungs:
      player === "progressive"
        ? "source"
        : [...rungCounts]
            .sort((a, b) => Math.abs(a[0]) - Math.abs(b[0]))
            .map(([rung, count]) => `${rungLabel(rung)}×${count}`)
            .join(" ") || "–",
    mismatches: results.reduce((sum, result) => sum + (result.mismatches ?? 0), 0),
  };
}

const COLUMNS: Array<{
  title: string;
  width: number;
  value: (summary: Summary) => string;
  ratio?: (summary: Summary) => number;
}> = [
  { title: "player", width: 12, value: (s) => s.player },
  { title: "kbps", width: 5, value: (s) => String(s.kbps) },
  { title: "ok", width: 5, value: (s) => `${s.ok}/${s.runs}` },
  { title: "1st frame p50", width: 13, value: (s) => fmt(s.ffP50, 2), ratio: (s) => s.ffP50 },
  { title: "max", width: 6, value: (s) => fmt(s.ffMax, 2), ratio: (s) => s.ffMax },
  { title: "stalls mean", width: 11, value: (s) => fmt(s.stallsMean), ratio: (s) => s.stallsMean },
  { title: "max", width: 4, value: (s) => fmt(s.stallsMax, 0), ratio: (s) => s.stallsMax },
  { title: "stall s", width: 7, value: (s) => fmt(s.stallSecondsMean), ratio: (s) => s.stallSecondsMean },
  { title: "played/120s", width: 11, value: (s) => fmt(s.played, 0), ratio: (s) => s.played },
  { title: "seek p50", width: 8, value: (s) => fmt(s.seekP50, 2), ratio: (s) => s.seekP50 },
  { title: "max", width: 6, value: (s) => fmt(s.seekMax, 2), ratio: (s) => s.seekMax },
  { title: "KB pre-play", width: 11, value: (s) => fmt(s.kbBeforePlay, 0), ratio: (s) => s.kbBeforePlay },
  { title: "MB/min", width: 6, value: (s) => fmt(s.mbPerMinute, 2), ratio: (s) => s.mbPerMinute },
  { title: "trunc", width: 5, value: (s) => String(s.mismatches) },
  { title: "rungs played", width: 0, value: (s) => s.rungs },
];

function row(cells: string[]): string {
  return cells
    .map((cell, index) =>
      COLUMNS[index].width ? cell.padStart(Math.max(COLUMNS[index].width, COLUMNS[index].title.length)) : cell,
    )
    .join("  ");
}

/** The issue's goals for a summary of an adaptive player, as "figure goal ✓/✗". */
function goals(summary: Summary): string[] {
  const check = (label: string, value: number, limit: number, unit: string) =>
    `${label} ${fmt(value, 2)}${unit} (goal ≤ ${limit}${unit}) ${Number.isFinite(value) && value <= limit ? "✓" : "✗"}`;
  const lines: string[] = [];
  if (summary.kbps === 500)
    lines.push(
      check("first frame p50", summary.ffP50, 2.5, " s"),
      check("stalls max", summary.stallsMax, 0, ""),
      check("seek p50", summary.seekP50, 3, " s"),
    );
  if (summary.kbps === 250)
    lines.push(check("first frame p50", summary.ffP50, 4, " s"), check("stalls max", summary.stallsMax, 1, ""));
  lines.push(check("video before play", summary.kbBeforePlay, 64, " KB"));
  if (DATA_SAVER) lines.push(check("data saver", summary.mbPerMinute, 2.5, " MB/min"));
  return lines;
}

export function printTable(results: RunResult[]): void {
  const summaries: Summary[] = [];
  for (const player of PLAYERS as PlayerName[]) {
    for (const kbps of SPEEDS)
      summaries.push(
        summarise(
          player,
          kbps,
          results.filter((result) => result.player === player && result.kbps === kbps),
        ),
      );
  }
  console.log(
    `\nPlayback, ${RUNS} runs each, ${PLAY_SECONDS} s of play, ${LATENCY_MS} ms latency${DATA_SAVER ? ", data saver on" : ""} (times in s; played scaled to 120 s; MB per minute of film played; KB p50)`,
  );
  console.log(row(COLUMNS.map((column) => column.title)));
  for (const summary of summaries) console.log(row(COLUMNS.map((column) => column.value(summary))));

  const baselines = summaries.filter((summary) => summary.player === "progressive");
  if (baselines.length > 0) {
    console.log("\nRatios to the progressive player (× of progressive; below 1 is better except played/120s)");
    for (const summary of summaries) {
      const baseline = baselines.find((candidate) => candidate.kbps === summary.kbps);
      if (!baseline || summary.player === "progressive") continue;
      console.log(
        row(
          COLUMNS.map((column, index) => {
            if (index === 0) return `${summary.player}÷prog`;
            if (index === 1) return String(summary.kbps);
            if (!column.ratio) return "";
            const ratio = column.ratio(summary) / column.ratio(baseline);
            return Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : "–";
          }),
        ),
      );
    }
  }

  // The AV1 family against H.264 alone, the same player on the same links in the same run.
  const h264Only = summaries.filter((summary) => summary.player === "adaptive-h264");
  if (h264Only.length > 0 && summaries.some((summary) => summary.player === "adaptive")) {
    console.log(
      "\nAV1 + Opus (adaptive) against H.264 only (adaptive-h264): × of H.264 only; below 1 is better except played/120s",
    );
    for (const summary of summaries.filter((candidate) => candidate.player === "adaptive")) {
      const baseline = h264Only.find((candidate) => candidate.kbps === summary.kbps);
      if (!baseline) continue;
      console.log(
        row(
          COLUMNS.map((column, index) => {
            if (index === 0) return "av1÷h264";
            if (index === 1) return String(summary.kbps);
            if (!column.ratio) return "";
            const ratio = column.ratio(summary) / column.ratio(baseline);
            return Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : "–";
          }),
        ),
      );
    }
  }

  console.log("\nGoals (issue) for the adaptive players");
  for (const summary of summaries.filter((candidate) => candidate.player !== "progressive")) {
    console.log(`  ${summary.player} @ ${summary.kbps} kbps: ${goals(summary).join("; ")}`);
  }
  printBytesTables(results);
  const mismatches = results.reduce((sum, result) => sum + (result.mismatches ?? 0), 0);
  const responses = results.reduce((sum, result) => sum + (result.responses ?? 0), 0);
  console.log(
    `\nFinished film responses whose body did not match their Content-Length/Content-Range (Chromium cache truncation under throttling): ${mismatches} of ${responses} checked`,
  );
  const failed = results.filter((result) => !result.ok);
  if (failed.length > 0) {
    console.log(`Failed runs: ${failed.length} of ${results.length}`);
    for (const result of failed)
      console.log(`  ${result.player} ${result.kbps} kbps #${result.run + 1}: ${result.error}`);
  }
}
