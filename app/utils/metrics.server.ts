import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, register } from "prom-client";
import { askPrimary, inCluster } from "./cluster.server";

/**
 * Prometheus metrics. What each process counts (requests, durations, media
 * bytes: recorded by the server) is in prom-client's default registry; with
 * several workers /metrics shows their sum, gathered by the primary
 * (prom-client's AggregatorRegistry). What the app reads from the database
 * and the disk when /metrics is read (jobs, uploads, disk) is the same
 * whichever process reads it, so it has a registry of its own and is never
 * summed. Route labels are patterns, never raw paths, so the number of series
 * stays small whatever URLs people try.
 */

// A worker answers the primary's requests for its counts (prom-client listens once the class is made).
if (inCluster()) new AggregatorRegistry();

/** The primary's question that `everyProcessMetrics` asks, and scripts/workers.ts answers. */
export const METRICS_QUESTION = "metrics";

const globalForMetrics = globalThis as unknown as { __kalloReadNowMetrics?: Registry };
const readNow = (globalForMetrics.__kalloReadNowMetrics ??= new Registry());

export const httpRequests =
  (register.getSingleMetric("kallo_http_requests_total") as Counter<"route" | "method" | "status"> | undefined) ??
  new Counter({
    name: "kallo_http_requests_total",
    help: "HTTP requests answered, by route pattern, method and status",
    labelNames: ["route", "method", "status"],
  });

export const httpDuration =
  (register.getSingleMetric("kallo_http_request_duration_seconds") as Histogram<"route" | "method"> | undefined) ??
  new Histogram({
    name: "kallo_http_request_duration_seconds",
    help: "Time from a request's arrival to the end of its answer, by route pattern",
    labelNames: ["route", "method"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120],
  });

export const bytesStreamed =
  (register.getSingleMetric("kallo_media_bytes_sent_total") as Counter<"kind"> | undefined) ??
  new Counter({
    name: "kallo_media_bytes_sent_total",
    help: "Bytes of films, ladders and posters sent",
    labelNames: ["kind"],
  });

/** Gauges whose values the app sets when /metrics is read (from the database and the disk). */
export function gauge<L extends string>(name: string, help: string, labelNames: L[]): Gauge<L> {
  return (
    (readNow.getSingleMetric(name) as Gauge<L> | undefined) ??
    new Gauge({ name, help, labelNames, registers: [readNow] })
  );
}

/** The text /metrics answers: every worker's counts summed (or this process's alone), then the gauges read now. */
export async function metricsText(): Promise<string> {
  const counted = inCluster() ? await askPrimary<string>(METRICS_QUESTION) : await register.metrics();
  return `${counted.trimEnd()}\n\n${await readNow.metrics()}`;
}

export const metricsContentType = register.contentType;

const ID = /^[a-z0-9]{12,}$/i;

/** A request's path as a route pattern: ids and file names become placeholders, and only the first three parts count. */
export function routeLabel(pathname: string): string {
  if (pathname.startsWith("/build/")) return "/build/*";
  const parts = pathname.split("/").filter(Boolean).slice(0, 3);
  const pattern = parts.map((part) =>
    ID.test(part) ? ":id" : /\.[a-z0-9]{2,5}$/i.test(part) ? ":file" : part.length > 40 ? ":long" : part,
  );
  return `/${pattern.join("/")}`;
}

/** What kind of media a path sends, for the bytes counter (null: not media). */
export function mediaKind(pathname: string): string | null {
  if (pathname.startsWith("/stream/")) return "ladder";
  if (pathname.startsWith("/api/files/thumbnail/")) return "poster";
  if (pathname.startsWith("/api/files/")) return "film";
  return null;
}
