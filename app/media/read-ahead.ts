/**
 * How much film the adaptive player fetches ahead of the picture: what a
 * viewer who stops watching has paid for and never seen. Shared by the
 * player (the player's limits), the decision record's figures and the playback
 * benchmark, which checks that bytes fetched stay within bytes played plus
 * this read-ahead.
 */

/** Read-ahead while playing: enough to ride out a dip of a mobile link. */
export const READ_AHEAD_SECONDS = 30;
/** Read-ahead while playing under data saver. */
export const DATA_SAVER_READ_AHEAD_SECONDS = 12;
/**
 * Read-ahead while paused: what is already fetched stays, and no more than
 * this is fetched (a viewer who pauses and leaves the phone has paid for
 * little); playing again starts at once.
 */
export const PAUSED_READ_AHEAD_SECONDS = 10;
export const DATA_SAVER_PAUSED_READ_AHEAD_SECONDS = 4;
/** The ladder's segment length (`KEYFRAME_SECONDS` of the encoder; a unit test keeps the two equal). */
export const SEGMENT_SECONDS = 2;

/** The read-ahead that applies now, in seconds of film. */
export function readAheadSeconds(options: { dataSaver: boolean; paused: boolean }): number {
  if (options.paused) return options.dataSaver ? DATA_SAVER_PAUSED_READ_AHEAD_SECONDS : PAUSED_READ_AHEAD_SECONDS;
  return options.dataSaver ? DATA_SAVER_READ_AHEAD_SECONDS : READ_AHEAD_SECONDS;
}

export type HlsBufferLimits = {
  maxBufferLength: number;
  maxMaxBufferLength: number;
  maxBufferSize: number;
  backBufferLength: number;
};

/**
 * the player's buffer settings for a read-ahead of `seconds`. the player asks for
 * the next segment while the buffer ahead is below its limit, so the buffer
 * can pass the limit by one segment: the limit is the read-ahead less one
 * segment. the player's limit is the larger of `maxBufferLength` and
 * `maxBufferSize` bytes' worth of the rung, capped by `maxMaxBufferLength`:
 * with `maxBufferSize` 0 the bytes never lengthen it (a 20 MB allowance was
 * ten minutes of 240p) and `maxMaxBufferLength` equal to it leaves nothing
 * to grow into. The back buffer (film kept behind the picture, which costs
 * memory but no data, and spares a refetch when the viewer goes back a
 * little) is the playing read-ahead.
 */
export function hlsBufferLimits(seconds: number, segmentSeconds: number = SEGMENT_SECONDS): HlsBufferLimits {
  const limit = Math.max(segmentSeconds / 2, seconds - segmentSeconds);
  return {
    maxBufferLength: limit,
    maxMaxBufferLength: limit,
    maxBufferSize: 0,
    backBufferLength: READ_AHEAD_SECONDS,
  };
}
