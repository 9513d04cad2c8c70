import { and, eq } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { movies } from "~/db/schema";

/**
 * A title as its own provider previews it, in any state (processing, waiting
 * for approval, sent back, live): its provider's only, never counted as a
 * view and needing no pass. Undefined for another provider's title or none.
 */
export function findOwnTitleForPreview(db: DB, movieId: string, providerId: string) {
  if (!movieId) return undefined;
  return db
    .select({
      id: movies.id,
      name: movies.name,
      status: movies.status,
      approved: movies.approved,
      durationSeconds: movies.durationSeconds,
      mediaVersion: movies.mediaVersion,
    })
    .from(movies)
    .where(and(eq(movies.id, movieId), eq(movies.providerId, providerId)))
    .get();
}
