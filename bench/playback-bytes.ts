/**
 * Bytes fetched against bytes played, for the playback benchmark: which part
 * of each byte range a player fetched holds film before the position (played),
 * after it (read ahead), the init section, or a stretch fetched again (at
 * another rung, or the same bytes twice). Pure: the benchmark feeds it each
 * rung's media playlist and the ranges it saw on the wire.
 */
import { parseMediaPlaylist } from "../app/media/hls";

export type RungMap = {
  rung: number;
  /** The rung's peak bitrate (the master playlist's BANDWIDTH), bits per second. */
  peakBitsPerSecond: number;
  init: { offset: number; length: number };
  segments: Array<{ start: number; end: number; offset: number; length: number }>;
};

export function rungMap(rung: number, playlistText: string, peakBitsPerSecond: number): RungMap {
  const playlist = parseMediaPlaylist(playlistText);
  let start = 0;
  const segments = playlist.segments.map((segment) => {
    const entry = { start, end: start + segment.durationSeconds, offset: segment.offset, length: segment.length };
    start = entry.end;
    return entry;
  });
  return { rung, peakBitsPerSecond, init: playlist.init, segments };
}

/** Bytes of one rung's file that came over the wire: `bytes` from `offset` on, asked for at `sentAt`. */
export type FetchedRange = { rung: number; offset: number; bytes: number; sentAt: number };

export type ByteAccount = {
  /** Film before the position (the segment under the position pro rata). */
  played: number;
  /** Film after the position that is fetched or on its way. */
  ahead: number;
  /** The seconds of film that `ahead` holds. */
  aheadSeconds: number;
  /** Init sections (a few hundred bytes per rung). */
  init: number;
  /** Film fetched more than once: the same stretch at another rung, or the same bytes twice. */
  refetched: number;
  /** The stated read-ahead in bytes: its seconds at the peak bitrate of the highest rung fetched ahead (else the rung at the position). */
  allowance: number;
};

/**
 * Account for every fetched byte of the rung files at `position` (seconds).
 * Where one stretch of film was fetched at several rungs, the last one asked
 * for is what the player keeps; the others are refetched.
 */
export function accountBytes(
  maps: ReadonlyMap<number, RungMap>,
  fetched: readonly FetchedRange[],
  position: number,
  readAheadSeconds: number,
): ByteAccount {
  const account: ByteAccount = { played: 0, ahead: 0, aheadSeconds: 0, init: 0, refetched: 0, allowance: 0 };
  // Per segment index, per rung: bytes received and when last asked for.
  const bySegment = new Map<number, Map<number, { bytes: number; sentAt: number }>>();
  for (const range of [...fetched].sort((a, b) => a.sentAt - b.sentAt)) {
    const map = maps.get(range.rung);
    if (!map || range.bytes <= 0) continue;
    const from = range.offset;
    const to = range.offset + range.bytes;
    account.init += overlap(from, to, map.init.offset, map.init.offset + map.init.length);
    map.segments.forEach((segment, index) => {
      const bytes = overlap(from, to, segment.offset, segment.offset + segment.length);
      if (bytes === 0) return;
      const rungs = bySegment.get(index) ?? new Map<number, { bytes: number; sentAt: number }>();
      const entry = rungs.get(range.rung) ?? { bytes: 0, sentAt: 0 };
      // Pieces of one segment (a range cut short, then continued) add up to its length; beyond it, bytes came twice.
      const kept = Math.min(segment.length - entry.bytes, bytes);
      account.refetched += bytes - kept;
      entry.bytes += kept;
      entry.sentAt = range.sentAt;
      rungs.set(range.rung, entry);
      bySegment.set(index, rungs);
    });
  }
  let peakAhead = 0;
  let peakAt = 0;
  let peakAny = 0;
  for (const [index, rungs] of bySegment) {
    const [keptRung, kept] = [...rungs].reduce((latest, candidate) =>
      candidate[1].sentAt > latest[1].sentAt ? candidate : latest,
    );
    for (const [rung, entry] of rungs) if (rung !== keptRung) account.refetched += entry.bytes;
    const map = maps.get(keptRung)!;
    const segment = map.segments[index];
    const duration = segment.end - segment.start;
    const playedShare = Math.min(1, Math.max(0, (position - segment.start) / duration));
    account.played += kept.bytes * playedShare;
    account.ahead += kept.bytes * (1 - playedShare);
    account.aheadSeconds += duration * (1 - playedShare) * (kept.bytes / segment.length);
    peakAny = Math.max(peakAny, map.peakBitsPerSecond);
    if (playedShare < 1) peakAhead = Math.max(peakAhead, map.peakBitsPerSecond);
    if (playedShare > 0 && playedShare < 1) peakAt = map.peakBitsPerSecond;
  }
  account.allowance = (readAheadSeconds * (peakAhead || peakAt || peakAny)) / 8;
  return account;
}

function overlap(from: number, to: number, start: number, end: number): number {
  return Math.max(0, Math.min(to, end) - Math.max(from, start));
}
