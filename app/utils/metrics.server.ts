import { Counter, Gauge, Histogram, register } from "prom-client";

/**
 * Prometheus metrics of this process, in prom-client's default registry (one
 * per process: the server records requests, the app adds jobs and disk when
 * /metrics is read). Route labels are patterns, never raw paths, so the
 * number of series stays small whatever URLs people try.
 */
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

/** Gauges whose values the app sets when /metrics is read. */
export function gauge<L extends string>(name: string, help: string, labelNames: L[]): Gauge<L> {
  return (register.getSingleMetric(name) as Gauge<L> | undefined) ?? new Gauge({ name, help, labelNames });
}

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
