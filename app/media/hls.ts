/**
 * HLS playlists (RFC 8216) for renditions stored as one fragmented MP4 file
 * each, addressed by byte ranges. Pure text in, text out: the ladder job
 * reads what ffmpeg wrote and writes the playlists we serve; the stream route
 * writes the master playlist for each viewer.
 */

export type ByteRangeSegment = { durationSeconds: number; length: number; offset: number };

export type MediaPlaylist = {
  /** The file every segment (and the init section) is a range of, as the playlist names it. */
  uri: string;
  init: { length: number; offset: number };
  segments: ByteRangeSegment[];
};

export class PlaylistError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PlaylistError";
  }
}

/** Read a single-file, byte-range media playlist as ffmpeg's HLS muxer writes it. */
export function parseMediaPlaylist(text: string): MediaPlaylist {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines[0] !== "#EXTM3U") throw new PlaylistError("not an HLS playlist");
  let uri: string | null = null;
  let init: MediaPlaylist["init"] | null = null;
  const segments: ByteRangeSegment[] = [];
  let duration: number | null = null;
  let range: { length: number; offset: number } | null = null;
  let nextOffset = 0;
  for (const line of lines) {
    if (line.startsWith("#EXT-X-MAP:")) {
      const map = /URI="([^"]+)"(?:,BYTERANGE="(\d+)@(\d+)")?/.exec(line);
      if (!map || map[2] === undefined) throw new PlaylistError("the init section must be a byte range");
      uri = map[1];
      init = { length: Number(map[2]), offset: Number(map[3]) };
      nextOffset = init.offset + init.length;
    } else if (line.startsWith("#EXTINF:")) {
      duration = Number(line.slice("#EXTINF:".length).split(",")[0]);
      if (!Number.isFinite(duration) || duration <= 0) throw new PlaylistError(`bad segment duration: ${line}`);
    } else if (line.startsWith("#EXT-X-BYTERANGE:")) {
      const [length, offset] = line.slice("#EXT-X-BYTERANGE:".length).split("@");
      range = { length: Number(length), offset: offset === undefined ? nextOffset : Number(offset) };
    } else if (!line.startsWith("#")) {
      if (duration === null || range === null) throw new PlaylistError(`segment ${line} has no duration or byte range`);
      if (uri !== null && line !== uri) throw new PlaylistError("every segment must come from one file");
      segments.push({ durationSeconds: duration, ...range });
      nextOffset = range.offset + range.length;
      duration = null;
      range = null;
    }
  }
  if (!uri || !init) throw new PlaylistError("the playlist has no init section");
  if (segments.length === 0) throw new PlaylistError("the playlist has no segments");
  return { uri, init, segments };
}

/**
 * A last segment shorter than `minSeconds` (the film ends just after a
 * keyframe) joined to the one before it: a sliver of a second holding a
 * keyframe would make the rung's peak bitrate (BANDWIDTH) look twice what
 * any real segment needs. Contiguous ranges only; the input is not changed.
 */
export function joinShortTail(segments: readonly ByteRangeSegment[], minSeconds: number): ByteRangeSegment[] {
  const result = segments.map((segment) => ({ ...segment }));
  const last = result.at(-1);
  const before = result.at(-2);
  if (!last || !before || last.durationSeconds >= minSeconds || before.offset + before.length !== last.offset)
    return result;
  before.durationSeconds += last.durationSeconds;
  before.length += last.length;
  result.pop();
  return result;
}

function formatDuration(seconds: number): string {
  return seconds.toFixed(3);
}

/** A VOD media playlist for one rendition file. */
export function writeMediaPlaylist(playlist: MediaPlaylist): string {
  const target = Math.max(
    1,
    ...playlist.segments.map((segment) => Math.round(Number(formatDuration(segment.durationSeconds)))),
  );
  const lines = [
    "#EXTM3U",
    "#EXT-X-VERSION:7",
    `#EXT-X-TARGETDURATION:${target}`,
    "#EXT-X-MEDIA-SEQUENCE:0",
    "#EXT-X-PLAYLIST-TYPE:VOD",
    "#EXT-X-INDEPENDENT-SEGMENTS",
    `#EXT-X-MAP:URI="${playlist.uri}",BYTERANGE="${playlist.init.length}@${playlist.init.offset}"`,
  ];
  // A segment that starts where the one before ended leaves its offset out
  // (RFC 8216, 4.3.2.2): the offsets are the one thing in a playlist that
  // does not compress, and a feature film has thousands of segments.
  let previousEnd: number | null = null;
  for (const segment of playlist.segments) {
    const range = segment.offset === previousEnd ? `${segment.length}` : `${segment.length}@${segment.offset}`;
    lines.push(`#EXTINF:${formatDuration(segment.durationSeconds)},`, `#EXT-X-BYTERANGE:${range}`, playlist.uri);
    previousEnd = segment.offset + segment.length;
  }
  lines.push("#EXT-X-ENDLIST", "");
  return lines.join("\n");
}

export type PlaylistStats = {
  durationSeconds: number;
  bandwidth: number;
  averageBandwidth: number;
  mediaBytes: number;
};

/**
 * What a master playlist says of a rendition: BANDWIDTH is the peak bitrate
 * of any one segment, AVERAGE-BANDWIDTH the whole file's (both in bits per
 * second, from the real sizes, init section included).
 */
export function playlistStats(playlist: MediaPlaylist): PlaylistStats {
  const durationSeconds = playlist.segments.reduce((sum, segment) => sum + segment.durationSeconds, 0);
  const mediaBytes = playlist.segments.reduce((sum, segment) => sum + segment.length, 0);
  const peak = Math.max(...playlist.segments.map((segment) => (segment.length * 8) / segment.durationSeconds));
  const average = Math.ceil(((mediaBytes + playlist.init.length) * 8) / durationSeconds);
  return {
    durationSeconds,
    mediaBytes,
    // Never below the average: a short film's init section can lift its average over its largest segment.
    bandwidth: Math.max(Math.ceil(peak), average),
    averageBandwidth: average,
  };
}

/** The CODECS attribute of each variant in a master playlist, by its URI. */
export function codecsByUri(masterText: string): Map<string, string> {
  const codecs = new Map<string, string>();
  const lines = masterText.split(/\r?\n/).map((line) => line.trim());
  for (let index = 0; index < lines.length; index++) {
    if (!lines[index].startsWith("#EXT-X-STREAM-INF:")) continue;
    const value = /CODECS="([^"]+)"/.exec(lines[index])?.[1];
    const uri = lines.slice(index + 1).find((line) => line && !line.startsWith("#"));
    if (value && uri) codecs.set(uri, value);
  }
  return codecs;
}

export type MasterVariant = {
  uri: string;
  bandwidth: number;
  averageBandwidth: number;
  width: number;
  height: number;
  codecs: string;
};

/**
 * A master playlist listing `variants` in the order given: players that take
 * the first variant as their starting point (native HLS does) start there.
 */
export function writeMasterPlaylist(variants: readonly MasterVariant[]): string {
  const lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS"];
  for (const variant of variants) {
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${variant.bandwidth},AVERAGE-BANDWIDTH=${variant.averageBandwidth},RESOLUTION=${variant.width}x${variant.height},CODECS="${variant.codecs}"`,
      variant.uri,
    );
  }
  lines.push("");
  return lines.join("\n");
}
