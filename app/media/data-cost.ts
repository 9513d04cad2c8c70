/**
 * What a film will likely cost a viewer, before play: the rungs the link
 * carries and their real sizes. Pure, shared by the watch page's loader (from
 * the Downlink client hint, or a slow mobile link assumed) and the page in the
 * browser (from `navigator.connection` and the rungs this device played
 * before), so both say the same for the same facts.
 *
 * The rules follow the player's own (abr-controller): it climbs to a rung whose
 * peak bitrate fits 70 % of the measured link, and keeps one whose average
 * fits 95 %; so on a steady link it plays between those two rungs.
 */

export type CostRung = {
  rung: number;
  /** Peak bitrate (the master playlist's BANDWIDTH), bits per second. */
  bandwidth: number;
  /** Average bitrate (AVERAGE-BANDWIDTH), bits per second. */
  averageBandwidth: number;
  /** The rung's file for the whole film, in MB (one decimal). */
  megabytes: number;
  megabytesPerHour: number;
};

/** Without any sign of the link, assume a slow mobile one (kbps). */
export const DEFAULT_LINK_KBPS = 400;
/** the player climbs to a rung whose peak fits this share of the link (`abrBandWidthUpFactor`)… */
const CLIMB_SHARE = 0.7;
/** …and keeps a rung whose average fits this share (`abrBandWidthFactor`). */
const HOLD_SHARE = 0.95;
/** How many of this device's last viewings say what it plays. */
export const PLAYED_RUNGS_KEPT = 5;

export type CostBasis = "link" | "history" | "assumed";

export type CostEstimate = {
  low: CostRung;
  high: CostRung;
  /** What the range comes from: the link the device reports, what it played before, or a slow link assumed. */
  basis: CostBasis;
};

/** The rungs the player would play on a steady link of `linkKbps`: the one it climbs to, and the one it can keep. */
export function rungsForLink(rungs: readonly CostRung[], linkKbps: number): { low: CostRung; high: CostRung } {
  const bitsPerSecond = linkKbps * 1000;
  const climbs = rungs.filter((rung) => rung.bandwidth <= bitsPerSecond * CLIMB_SHARE).at(-1) ?? rungs[0];
  const holds = rungs.filter((rung) => rung.averageBandwidth <= bitsPerSecond * HOLD_SHARE).at(-1) ?? rungs[0];
  return { low: climbs, high: holds.rung > climbs.rung ? holds : climbs };
}

/** The allowed rung a played rung stands for: the same, else the highest below it, else the lowest. */
function allowedRungFor(rungs: readonly CostRung[], played: number): CostRung {
  return rungs.filter((rung) => rung.rung <= played).at(-1) ?? rungs[0];
}

/**
 * Auto's likely cost: from the link the device reports when it does; else
 * from the rungs this device played in its last viewings (their lowest to
 * their highest, among the rungs this viewer may play now); else from a slow
 * mobile link. `rungs` lowest first.
 */
export function estimateAutoCost(
  rungs: readonly CostRung[],
  facts: { linkKbps: number | null; playedRungs?: readonly number[] },
): CostEstimate | null {
  if (rungs.length === 0) return null;
  if (facts.linkKbps !== null && facts.linkKbps > 0) return { ...rungsForLink(rungs, facts.linkKbps), basis: "link" };
  const played = (facts.playedRungs ?? []).filter((rung) => Number.isFinite(rung) && rung > 0);
  if (played.length > 0) {
    const seen = played.map((rung) => allowedRungFor(rungs, rung));
    const low = seen.reduce((lowest, rung) => (rung.rung < lowest.rung ? rung : lowest));
    const high = seen.reduce((highest, rung) => (rung.rung > highest.rung ? rung : highest));
    return { low, high, basis: "history" };
  }
  return { ...rungsForLink(rungs, DEFAULT_LINK_KBPS), basis: "assumed" };
}

/**
 * Data saver's rung: the lowest that stays watchable. 240p (or the highest
 * allowed rung below it) wherever the link can keep it, which the player decides
 * by its average (about 300 kbps for 240p); below that the lowest rung.
 * Unknown links are assumed to keep it (a slow mobile link of 400 kbps does).
 */
export function dataSaverRung<R extends { rung: number; averageBandwidth: number }>(
  rungs: readonly R[],
  linkKbps: number | null,
  maxRung: number,
): R | null {
  const allowed = rungs.filter((rung) => rung.rung <= maxRung);
  const top = allowed.at(-1) ?? rungs[0];
  if (!top) return null;
  const kbps = linkKbps !== null && linkKbps > 0 ? linkKbps : DEFAULT_LINK_KBPS;
  if (top.averageBandwidth <= kbps * 1000 * HOLD_SHARE) return top;
  return rungs[0];
}

/** The browser's own estimate of the link (the `Downlink` client hint, in Mbps), in kbps. */
export function downlinkHintKbps(header: string | null): number | null {
  if (header === null || header.trim() === "") return null;
  const value = Number(header);
  return Number.isFinite(value) && value > 0 ? Math.round(value * 1000) : null;
}

/** Rungs with the most seconds played first: the one a viewing is remembered by. */
export function mostPlayedRung(secondsByRung: ReadonlyMap<number, number>): number | null {
  let best: number | null = null;
  let bestSeconds = 0;
  for (const [rung, seconds] of secondsByRung) {
    if (seconds > bestSeconds) {
      best = rung;
      bestSeconds = seconds;
    }
  }
  return best;
}

/** Bytes as MB with one decimal ("0.1" at the least once anything was spent). */
export function megabytesOf(bytes: number): number {
  if (!(bytes > 0)) return 0;
  return Math.max(0.1, Math.round(bytes / 100_000) / 10);
}

/**
 * Whether a browser that decodes AV1 smoothly plays the AV1 + Opus family:
 * when the title has AV1 rungs and either data saver is on, or the H.264 rung
 * the link would hold is one the AV1 family has too (a fast link plays H.264's
 * larger rungs, which have no AV1 twin; a player stays in one family, so it
 * starts in the one it can climb in). Pure: the page and the master playlist
 * decide alike.
 */
export function playsAv1Family(
  h264: readonly CostRung[],
  av1: readonly CostRung[],
  facts: { linkKbps: number | null; dataSaver: boolean },
): boolean {
  const top = av1.at(-1);
  if (!top) return false;
  if (facts.dataSaver || h264.length === 0) return true;
  const linkKbps = facts.linkKbps !== null && facts.linkKbps > 0 ? facts.linkKbps : DEFAULT_LINK_KBPS;
  return rungsForLink(h264, linkKbps).high.rung <= top.rung;
}
