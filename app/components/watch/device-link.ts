import { PLAYED_RUNGS_KEPT } from "~/media/data-cost";

/**
 * What this device knows of its link and what it played before, kept in the
 * browser (nothing of it reaches the server but the link estimate the player
 * puts on the master playlist's address). Browser only: call from effects and
 * event handlers.
 */

/** Where the player keeps its last measured link speed (kbps), to start the next film on the right rung. */
const LINK_ESTIMATE_KEY = "kallo-link-kbps";
/** Where the player keeps the rung each of its last viewings played most. */
const PLAYED_RUNGS_KEY = "kallo-played-rungs";

type NetworkInformation = { downlink?: number };

/** The link the device itself reports (Network Information API: Chromium-based browsers), in kbps. */
export function reportedLinkKbps(): number | null {
  const connection = (navigator as Navigator & { connection?: NetworkInformation }).connection;
  return connection?.downlink && connection.downlink > 0 ? Math.round(connection.downlink * 1000) : null;
}

/**
 * What we know of the link before anything is fetched: the browser's own
 * estimate, else what this player measured last time, else nothing (the
 * server then assumes a slow mobile link).
 */
export function linkEstimateKbps(): number | null {
  const reported = reportedLinkKbps();
  if (reported) return reported;
  const remembered = Number(readStorage(LINK_ESTIMATE_KEY));
  return Number.isFinite(remembered) && remembered > 0 ? remembered : null;
}

export function rememberLinkKbps(kbps: number) {
  if (!(kbps > 0) || !Number.isFinite(kbps)) return;
  writeStorage(LINK_ESTIMATE_KEY, String(Math.round(kbps)));
}

/** The rung each of this device's last viewings played most, oldest first. */
export function playedRungs(): number[] {
  try {
    const parsed: unknown = JSON.parse(readStorage(PLAYED_RUNGS_KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((rung): rung is number => Number.isInteger(rung) && rung > 0) : [];
  } catch {
    return [];
  }
}

/**
 * Remember the rung a viewing played most. `replaceLast` updates the entry
 * this viewing already wrote (a viewer who pauses twice is one viewing).
 */
export function rememberPlayedRung(rung: number, replaceLast: boolean) {
  const rungs = playedRungs();
  if (replaceLast && rungs.length > 0) rungs[rungs.length - 1] = rung;
  else rungs.push(rung);
  writeStorage(PLAYED_RUNGS_KEY, JSON.stringify(rungs.slice(-PLAYED_RUNGS_KEPT)));
}

function readStorage(key: string): string | null {
  try {
    return window.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function writeStorage(key: string, value: string) {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Private mode or a full quota: the next film starts from the server's default.
  }
}
