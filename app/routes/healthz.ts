import { sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";

/** Liveness and readiness for the container: the process answers and the database reads. */
export function loader() {
  try {
    getDb().get(sql`select 1`);
    return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    console.error("[healthz] database check failed", error);
    return Response.json({ status: "error", message: "database unavailable" }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
}
