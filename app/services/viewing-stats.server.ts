import { sql, type SQL } from "drizzle-orm";
import { movies, watchEvents } from "~/db/schema";
import { qualified } from "~/db/sql";
import { isFinished } from "./watching.server";

/**
 * How much of a film was watched, read from the progress reports the player
 * already sends (decision 012): each viewing keeps when it started, when its
 * last report came and where the film was then. No extra report is needed.
 *
 * - **Watch time** of a viewing: how far it got, but never more than the time
 *   it lasted (its first to its last report, plus one report interval). So a
 *   viewer who seeks to the end in a second counts seconds, not the film; one
 *   who resumes at minute 50 and watches five minutes counts five minutes,
 *   not fifty-five; a pause in the middle counts nothing. Never more than the
 *   film's length.
 * - **Share watched**: watch time over the film's length (at most 100 %).
 * - **Where viewers stop**: a viewing stops where its last report was; the
 *   retention curve is, at each point of the film, the share of viewings
 *   that got at least that far (a viewing that reached the end counts as
 *   whole). After a film was replaced by a shorter cut, a position past its
 *   new end counts as the end.
 *
 * The same rule is written twice — in TypeScript for the charts' unit tests
 * and whatever is computed in memory, in SQL for sums over many rows — and a
 * test checks that both agree.
 */

/** The player reports every 10 s while playing (decision 012): a viewing's last stretch is at most this long. */
export const REPORT_INTERVAL_SECONDS = 10;

export type Viewing = {
  startedAt: number;
  updatedAt: number;
  positionSeconds: number;
  durationSeconds: number;
};

export function watchedSeconds(viewing: Viewing): number {
  const position = Math.max(0, viewing.positionSeconds);
  const reached = viewing.durationSeconds > 0 ? Math.min(position, viewing.durationSeconds) : position;
  const lasted = Math.max(0, (viewing.updatedAt - viewing.startedAt) / 1000) + REPORT_INTERVAL_SECONDS;
  return Math.min(reached, lasted);
}

/** `watchedSeconds` of a `watch_events` row joined to its title, as SQL: always a real number (so a share of it never divides as integers). */
export const watchedSecondsSql: SQL<number> = sql<number>`min(
  max(${qualified(watchEvents.positionSeconds)}, 0) * 1.0,
  CASE WHEN ${qualified(movies.durationSeconds)} > 0 THEN ${qualified(movies.durationSeconds)} ELSE max(${qualified(watchEvents.positionSeconds)}, 0) END,
  max(${qualified(watchEvents.updatedAt)} - ${qualified(watchEvents.startedAt)}, 0) / 1000.0 + ${REPORT_INTERVAL_SECONDS}
)`;

/** The share of the film one viewing watched, 0 to 1. */
export function shareWatched(viewing: Viewing): number {
  if (viewing.durationSeconds <= 0) return 0;
  return Math.min(1, watchedSeconds(viewing) / viewing.durationSeconds);
}

/** The average share watched over viewings (0 to 1), or null without viewings. */
export function averageShareWatched(viewings: readonly Viewing[]): number | null {
  const counted = viewings.filter((viewing) => viewing.durationSeconds > 0);
  if (counted.length === 0) return null;
  return counted.reduce((total, viewing) => total + shareWatched(viewing), 0) / counted.length;
}

/** Where a viewing stopped, as a share of the film (0 to 1); a viewing that reached the end is 1. */
export function stopShare(viewing: Pick<Viewing, "positionSeconds" | "durationSeconds">): number {
  if (viewing.durationSeconds <= 0) return 0;
  if (isFinished(viewing.positionSeconds, viewing.durationSeconds)) return 1;
  return Math.min(1, Math.max(0, viewing.positionSeconds / viewing.durationSeconds));
}

export type RetentionPoint = { share: number; seconds: number; stillWatching: number };

/** Which of `steps` + 1 points a stop reached: floor(stop × steps), 0 to `steps` (a tiny tolerance: 0.1 + 0.2 is not 0.3). */
export function stopStep(stop: number, steps: number): number {
  return Math.min(steps, Math.max(0, Math.floor(stop * steps + 1e-9)));
}

/**
 * The retention curve of a film: at each of `steps` + 1 evenly spaced points
 * (0 %, 5 %, … 100 % of the film with 20 steps), the share of viewings that
 * got at least that far. Starts at 1 (every viewing began) unless there are
 * none; never rises.
 */
export function retentionCurve(
  viewings: readonly Pick<Viewing, "positionSeconds" | "durationSeconds">[],
  durationSeconds: number,
  steps = 20,
): RetentionPoint[] {
  const counts = new Map<number, number>();
  for (const viewing of viewings) {
    const step = stopStep(stopShare(viewing), steps);
    counts.set(step, (counts.get(step) ?? 0) + 1);
  }
  return retentionFromSteps(
    [...counts].map(([step, viewings]) => ({ step, viewings })),
    durationSeconds,
    steps,
  );
}

/**
 * The same curve from how many viewings stopped at each step (what the
 * database counts with `stopStepSql`, so a title with a million viewings
 * is one small GROUP BY): a viewing reached every point up to its step.
 */
export function retentionFromSteps(
  stops: ReadonlyArray<{ step: number; viewings: number }>,
  durationSeconds: number,
  steps = 20,
): RetentionPoint[] {
  const reachedAtLeast = new Array<number>(steps + 2).fill(0);
  let total = 0;
  for (const { step, viewings } of stops) {
    reachedAtLeast[Math.min(steps, Math.max(0, step))]! += Number(viewings);
    total += Number(viewings);
  }
  for (let step = steps - 1; step >= 0; step--) reachedAtLeast[step]! += reachedAtLeast[step + 1]!;
  return Array.from({ length: steps + 1 }, (_, step) => ({
    share: step / steps,
    seconds: Math.round((step / steps) * durationSeconds),
    stillWatching: total === 0 ? 0 : reachedAtLeast[step]! / total,
  }));
}

/** `stopStep(stopShare(viewing), steps)` of a `watch_events` row joined to its title, as SQL. */
export function stopStepSql(steps: number): SQL<number> {
  const position = sql`max(${qualified(watchEvents.positionSeconds)}, 0)`;
  const duration = qualified(movies.durationSeconds);
  return sql<number>`CASE
    WHEN ${duration} <= 0 THEN 0
    WHEN ${position} >= ${duration} - min(10, ${duration} * 0.1) THEN ${steps}
    ELSE min(${steps}, CAST(min(1.0, ${position} * 1.0 / ${duration}) * ${steps} + 1e-9 AS INTEGER))
  END`;
}

/** Africa/Lagos (the pages' zone, utils/dates.ts) is UTC+1 all year: no summer time. */
const DISPLAY_ZONE_OFFSET_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The calendar day (YYYY-MM-DD, West Africa Time) of a moment. */
export function dayOf(ms: number): string {
  return new Date(ms + DISPLAY_ZONE_OFFSET_MS).toISOString().slice(0, 10);
}

/** The day of a stored millisecond column, in SQL, the same way. */
export function dayOfSql(column: SQL | ReturnType<typeof qualified>): SQL<string> {
  return sql<string>`strftime('%Y-%m-%d', (${column} + ${DISPLAY_ZONE_OFFSET_MS}) / 1000, 'unixepoch')`;
}

/** The last `days` calendar days up to and including today's, oldest first, and the moment the first began. */
export function dayWindow(days: number, now: Date = new Date()): { days: string[]; since: Date } {
  const todayStart = Math.floor((now.getTime() + DISPLAY_ZONE_OFFSET_MS) / DAY_MS) * DAY_MS - DISPLAY_ZONE_OFFSET_MS;
  const since = todayStart - (days - 1) * DAY_MS;
  return { days: Array.from({ length: days }, (_, index) => dayOf(since + index * DAY_MS)), since: new Date(since) };
}

/** When a day (YYYY-MM-DD, West Africa Time) ends. */
export function endOfDay(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) - DISPLAY_ZONE_OFFSET_MS + DAY_MS;
}

export type DailyValue = { day: string; value: number };

/** One value per day of the window, zero on days without a row. */
export function fillDays(days: readonly string[], rows: ReadonlyArray<{ day: string; value: number }>): DailyValue[] {
  const byDay = new Map<string, number>();
  for (const row of rows) byDay.set(row.day, (byDay.get(row.day) ?? 0) + Number(row.value));
  return days.map((day) => ({ day, value: byDay.get(day) ?? 0 }));
}
