import { eq } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { movies, type Role } from "~/db/schema";

export type PlaybackDecision = { allowed: true; movieId: string } | { allowed: false; status: 401 | 403 | 404; message: string };

const PUBLIC_VIDEO_NAME = /^([a-z0-9]{8,32})\.mp4$/;

/**
 * Who may stream a title's video: signed-in viewers and administrators a
 * published title (ready and approved), a provider their own titles (to check
 * them), administrators any ready title.
 */
export function decidePlayback(db: DB, filename: string, account: { id: string; role: Role } | null): PlaybackDecision {
  const match = PUBLIC_VIDEO_NAME.exec(filename);
  if (!match) return { allowed: false, status: 404, message: "Video not found" };
  if (!account) return { allowed: false, status: 401, message: "Sign in to watch" };
  const movie = db
    .select({ id: movies.id, status: movies.status, approved: movies.approved, providerId: movies.providerId })
    .from(movies)
    .where(eq(movies.id, match[1]))
    .get();
  if (!movie || movie.status !== "ready") return { allowed: false, status: 404, message: "Video not found" };
  if (account.role === "admin") return { allowed: true, movieId: movie.id };
  if (account.role === "provider") {
    return movie.providerId === account.id ? { allowed: true, movieId: movie.id } : { allowed: false, status: 403, message: "Not allowed" };
  }
  return movie.approved ? { allowed: true, movieId: movie.id } : { allowed: false, status: 404, message: "Video not found" };
}
