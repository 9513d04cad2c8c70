import { and, eq } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { subtitles } from "~/db/schema";
import { saveSubtitle } from "~/services/subtitles.server";

/**
 * Demo subtitles: three short lines of everyday dialogue that suit any demo
 * film (they are at most eight seconds long), in Hausa (written as WebVTT)
 * and English (written as SRT, so the demo also shows the conversion). They go
 * through the same checks and conversion as a provider's upload.
 */
const DEMO_SUBTITLE_FILES: ReadonlyArray<{ language: string; text: string }> = [
  {
    language: "ha",
    text: [
      "WEBVTT",
      "",
      "00:00:00.500 --> 00:00:02.500",
      "Ina ka je tun safe?",
      "",
      "00:00:02.800 --> 00:00:05.000",
      "Na je kasuwa. Hanya ta cika maƙil.",
      "",
      "00:00:05.300 --> 00:00:07.500",
      "Zo ka zauna, an gama girki.",
      "",
    ].join("\n"),
  },
  {
    language: "en",
    text: [
      "1",
      "00:00:00,500 --> 00:00:02,500",
      "Where have you been since morning?",
      "",
      "2",
      "00:00:02,800 --> 00:00:05,000",
      "At the market. The road was packed.",
      "",
      "3",
      "00:00:05,300 --> 00:00:07,500",
      "Come and sit down, the food is ready.",
      "",
    ].join("\r\n"),
  },
];

/**
 * Give a title the demo's Hausa and English subtitles, each only when the
 * title has none in that language (an edit is never undone). Returns how many
 * files were written.
 */
export function attachDemoSubtitles(db: DB, movieId: string, root: string): number {
  let written = 0;
  for (const file of DEMO_SUBTITLE_FILES) {
    const existing = db
      .select({ language: subtitles.language })
      .from(subtitles)
      .where(and(eq(subtitles.movieId, movieId), eq(subtitles.language, file.language)))
      .get();
    if (existing) continue;
    const saved = saveSubtitle(
      db,
      { movieId, language: file.language, bytes: new TextEncoder().encode(file.text) },
      root,
    );
    if (!saved.ok) throw new Error(`The demo subtitles (${file.language}) were refused: ${saved.message.key}`);
    written++;
  }
  return written;
}
