import { useEffect, useState } from "react";

/**
 * Does this browser decode a title's AV1 + Opus rungs smoothly through
 * MediaSource? Both must say so: `MediaSource.isTypeSupported` for the exact
 * CODECS (an older phone or an iPhone without AV1 says no), and
 * `mediaCapabilities.decodingInfo` for the picture at its size and bitrate
 * (a phone that decodes AV1 in software, too slowly, says it is not smooth).
 * Anything missing counts as no: H.264 plays everywhere.
 *
 * Asked once per CODECS in a page's life; the answer comes in a few
 * milliseconds, before the player would have its master playlist anyway.
 */
const answers = new Map<string, Promise<boolean>>();

/** The largest AV1 rung's picture, as asked: 360p at its bitrate (the lower rungs are easier). */
const ASKED_PICTURE = { width: 640, height: 360, bitrate: 300_000, framerate: 30 };

export function decodesAv1(codecs: string): Promise<boolean> {
  const known = answers.get(codecs);
  if (known) return known;
  const answer = ask(codecs).catch(() => false);
  answers.set(codecs, answer);
  return answer;
}

async function ask(codecs: string): Promise<boolean> {
  if (typeof window === "undefined") return false;
  const [video, audio] = codecs.split(",").map((codec) => codec.trim());
  if (!video?.startsWith("av01")) return false;
  const source = window.MediaSource;
  if (typeof source?.isTypeSupported !== "function") return false;
  const videoType = `video/mp4; codecs="${video}"`;
  const audioType = audio ? `audio/mp4; codecs="${audio}"` : null;
  if (!source.isTypeSupported(videoType) || (audioType && !source.isTypeSupported(audioType))) return false;
  const capabilities = navigator.mediaCapabilities;
  if (typeof capabilities?.decodingInfo !== "function") return false;
  const info = await capabilities.decodingInfo({
    type: "media-source",
    video: { contentType: videoType, ...ASKED_PICTURE },
    ...(audioType ? { audio: { contentType: audioType, channels: "2", bitrate: 48_000, samplerate: 48_000 } } : {}),
  });
  return info.supported && info.smooth;
}

/** The answer for a title's AV1 family: null while it is asked (and on the server), false without AV1 rungs. */
export function useDecodesAv1(codecs: string | null | undefined): boolean | null {
  const [answer, setAnswer] = useState<boolean | null>(codecs ? null : false);
  useEffect(() => {
    if (!codecs) {
      setAnswer(false);
      return;
    }
    let current = true;
    void decodesAv1(codecs).then((value) => {
      if (current) setAnswer(value);
    });
    return () => {
      current = false;
    };
  }, [codecs]);
  return answer;
}
