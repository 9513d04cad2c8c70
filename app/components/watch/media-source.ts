/**
 * The player's dealings with the browser's Media Source (`stream-player.client.ts`): appending and
 * waiting, what can go wrong, and whether the device keeps up with the picture.
 */

export class Refused extends Error {}
export class Stopped extends Error {}
/** A segment given up midway because the link fell: the next try is at a lower rung. */
export class Abandoned extends Error {}
/** The browser could not take or decode what it was given (the MediaSource it failed on). */
export class MediaFailed extends Error {
  constructor(readonly source: MediaSource | null) {
    super("media error");
  }
}

/** Resolves once the buffer is not updating; the caller's next step must follow without another await. */
export async function whenUpdated(buffer: SourceBuffer): Promise<void> {
  while (buffer.updating)
    await new Promise<void>((resolve) => buffer.addEventListener("updateend", () => resolve(), { once: true }));
}

/**
 * Append to a buffer that is not updating and wait until the browser has taken the bytes. A full buffer
 * throws the browser's QuotaExceededError; anything else the browser refuses (a MediaSource a decode
 * error ended refuses every append) throws MediaFailed.
 */
export async function appendAndWait(
  buffer: SourceBuffer,
  bytes: Uint8Array<ArrayBuffer>,
  source: MediaSource | null,
): Promise<void> {
  try {
    buffer.appendBuffer(bytes);
  } catch (error) {
    if ((error as DOMException).name === "QuotaExceededError") throw error;
    throw new MediaFailed(source);
  }
  await new Promise<void>((resolve, reject) => {
    const done = () => {
      buffer.removeEventListener("error", failed);
      resolve();
    };
    const failed = () => {
      buffer.removeEventListener("updateend", done);
      reject(new MediaFailed(source));
    };
    buffer.addEventListener("updateend", done, { once: true });
    buffer.addEventListener("error", failed, { once: true });
  });
}

/** More than this share of frames dropped in a window… */
const DROPPED_SHARE = 0.3;
const WINDOW_MS = 4_000;
/** …in this many windows running: the device does not keep up. */
const WINDOWS = 2;

/** Whether the device keeps up with the picture (`getVideoPlaybackQuality`), read every few seconds while it plays. */
export class DroppedFrames {
  private at = performance.now();
  private total = 0;
  private dropped = 0;
  private strikes = 0;

  constructor(private readonly video: HTMLVideoElement) {}

  struggling(now: number): boolean {
    if (now - this.at < WINDOW_MS || typeof this.video.getVideoPlaybackQuality !== "function") return false;
    const quality = this.video.getVideoPlaybackQuality();
    const total = quality.totalVideoFrames - this.total;
    const dropped = quality.droppedVideoFrames - this.dropped;
    this.strikes = total >= 40 && dropped / total > DROPPED_SHARE ? this.strikes + 1 : 0;
    this.at = now;
    this.total = quality.totalVideoFrames;
    this.dropped = quality.droppedVideoFrames;
    return this.strikes >= WINDOWS;
  }
}
