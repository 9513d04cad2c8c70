import { probeMedia, type MediaProbe } from "~/media/ffmpeg.server";
import { JobInterrupted, PermanentJobError } from "./jobs.server";

/**
 * What the rest of the service knows of turning an upload into a playable
 * film: the job's name and payload (services queue it; `jobs/process-movie`
 * does the work) and why a title failed.
 */
export const MOVIE_JOB = "process-movie";

export type ProcessMoviePayload = { source: string; poster?: string };

/**
 * Why a title failed, as the provider reads it in their list (studio
 * `list.failure.<reason>`): never the tool's own output, which names server
 * paths and memory addresses — that goes to the log.
 */
export const FAILURE_REASONS = ["unreadable", "noVideo", "noDuration", "interrupted", "processing"] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** The file itself is the problem: retrying will not help, and the provider is told which problem. */
export class FilmRefused extends PermanentJobError {
  constructor(
    readonly reason: FailureReason,
    detail: string,
  ) {
    super(detail);
    this.name = "FilmRefused";
  }
}

export function failureReasonOf(error: unknown): FailureReason {
  if (error instanceof FilmRefused) return error.reason;
  if (error instanceof JobInterrupted) return "interrupted";
  return "processing";
}

/** A stored reason as the list shows it (rows from before reasons were codes read as "processing"). */
export function knownFailureReason(stored: string | null): FailureReason | null {
  if (stored === null) return null;
  return (FAILURE_REASONS as readonly string[]).includes(stored) ? (stored as FailureReason) : "processing";
}

export type FilmVerdict =
  { ok: true; probe: MediaProbe } | { ok: false; reason: "unreadable" | "noVideo" | "noDuration" };

/**
 * What ffprobe makes of an uploaded film, before a title (or a replacement)
 * is made of it: a file it cannot read, with no picture or no length is
 * refused at once with the reason the provider reads (studio
 * `list.failure.<reason>`), instead of failing later in the processing job.
 */
export async function judgeFilm(file: string): Promise<FilmVerdict> {
  let probe: MediaProbe;
  try {
    probe = await probeMedia(file);
  } catch (error) {
    console.error(
      `[upload] ffprobe could not read an upload: ${error instanceof Error ? error.message : String(error)}`,
    );
    return { ok: false, reason: "unreadable" };
  }
  if (!probe.videoCodec) return { ok: false, reason: "noVideo" };
  if (!(probe.durationSeconds > 0)) return { ok: false, reason: "noDuration" };
  return { ok: true, probe };
}

/** The message key of a refused film, as the upload forms show it beside the file. */
export function filmRefusalKey(reason: FailureReason): string {
  return `studio:list.failure.${reason}`;
}
