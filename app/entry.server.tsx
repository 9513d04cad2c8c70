import { Transform, type TransformCallback } from "node:stream";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { handleApiRequest } from "~/api/router.server";
import { getApiCaller } from "~/auth/api-tokens.server";
import { startBillingSweep } from "~/jobs/billing-sweep.server";
import { startMailJobs, stopMailJobs } from "~/jobs/mail-jobs.server";
import { startMediaJobs, stopMediaJobs } from "~/jobs/media-jobs.server";
import { stopPeriodic } from "~/services/periodic.server";
import { closeDb } from "~/db/client.server";
import { startUploadSweep } from "~/services/resumable-uploads.server";
import { startHousekeeping } from "~/jobs/housekeeping.server";
import { startSmsNotices } from "~/jobs/sms-notices.server";
import { startDiskWatch } from "~/jobs/disk-watch.server";
import { getLanguage } from "~/i18n/language.server";
import { TranslationSourceContext } from "~/i18n/page-translations";
import { serverTranslationSource } from "~/i18n/translate.server";
import { runsBackgroundWork } from "~/utils/cluster.server";
import { getEnv } from "~/utils/env.server";
import { NonceProvider } from "~/utils/nonce";
import { answerSignedOutPage, applyCachePolicy } from "~/utils/page-caching.server";
import { applySecurityHeaders, createNonce } from "~/utils/security-headers.server";
import { renderDeadline } from "~/utils/render-deadline.server";
import { diskFullData, diskFullPage, hasMetDiskFull, noteDiskFull } from "~/routes-support/disk-full.server";
import { busyAnswer } from "~/routes-support/busy.server";

export const streamTimeout = 5_000;
/** When a page whose render ran out of time is asked again. */
const BUSY_RENDER_RETRY_SECONDS = 5;
export { answerDiskFullInResourceRoutes } from "~/routes-support/disk-full.server";
export { busyAnswer };

/**
 * The document's bytes in one chunk per React flush. React writes what it has
 * ready in 2 kB pieces, then calls `flush()` (the convention of compression
 * streams). Remix's adapter flushes the response after every chunk it passes
 * on, and each flush ends a compressed block: passed on piece by piece, a
 * signed-in catalogue page went out as about 25 gzip blocks, 2.4 times the
 * bytes of the page compressed whole (/movies 18 kB instead of 7.5; a series of
 * 100 episodes 87 kB instead of 18). Browsers ask for gzip, not Brotli, over
 * plain http (a LAN, a café box). Collected here, a page that renders at once
 * is one chunk and one block; a page that streams (a Suspense boundary
 * resolving later, as the loader data's scripts do) still goes out as it
 * comes, one chunk per React flush. (Those few flushes are sync flushes, which
 * keep the compressor's window: patches/compression+1.8.2.patch.)
 */
class ChunkPerFlush extends Transform {
  private pending: Uint8Array[] = [];

  override _transform(chunk: Uint8Array, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending.push(chunk);
    done();
  }

  /** Called by React when it has written all it has for now. */
  flush(): void {
    if (this.pending.length === 0) return;
    const pending = this.pending;
    this.pending = [];
    this.push(pending.length === 1 ? pending[0] : Buffer.concat(pending));
  }

  override _flush(done: TransformCallback): void {
    this.flush();
    done();
  }
}

// Validate the environment when the server loads, not at the first request,
// resume media work a previous process left unfinished, and start the
// sweeps (passes ending tomorrow, abandoned uploads, leftovers of killed work)
// — in one process only: the server, or its background worker when several
// workers serve (WORKERS; the others only answer requests).
getEnv();
if (runsBackgroundWork()) startBackgroundWork();

/**
 * Each part of the background work starts on its own, and one that cannot
 * start now (a database that cannot write on a full disk) says why and tries
 * again in half a minute: a process never ends at start over it, so a worker
 * is never replaced in a loop while the site could serve.
 */
function startBackgroundWork(): void {
  const parts: Array<[string, () => unknown]> = [
    ["disk watch", startDiskWatch],
    ["media jobs", startMediaJobs],
    ["mail jobs", startMailJobs],
    ["billing sweep", startBillingSweep],
    ["upload sweep", startUploadSweep],
    ["housekeeping", startHousekeeping],
    ["SMS notices", startSmsNotices],
  ];
  for (const [name, start] of parts) {
    const attempt = () => {
      try {
        start();
      } catch (error) {
        console.error(`[start] the ${name} could not start (${(error as Error).message}); tried again in 30 s`);
        setTimeout(attempt, 30_000).unref();
      }
    };
    attempt();
  }
}

/**
 * The app's part of a clean stop (scripts/serve.ts calls it on SIGTERM): no
 * more upkeep, the media jobs' encoders ended and their jobs queued again.
 * The database is closed by `closeDatabase`, after the last request is done.
 */
export async function stopBackgroundWork(): Promise<void> {
  stopPeriodic();
  await Promise.all([stopMediaJobs(), stopMailJobs()]);
}

export function closeDatabase(): void {
  closeDb();
}

/**
 * The role of who is calling, by the request's cookie or Bearer token, for the
 * server's body limits (scripts/serve.ts): a large body is read only from a
 * role that may send one there.
 */
export async function roleOfCaller(headers: { cookie?: string; authorization?: string }) {
  const request = new Request("http://kallo.invalid/", {
    headers: Object.fromEntries(
      Object.entries({ Cookie: headers.cookie, Authorization: headers.authorization }).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    ),
  });
  const caller = await getApiCaller(request);
  return caller?.account.role ?? null;
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  // /api paths are answered by the /api route module and never render a page,
  // except one that no route pattern matches (an encoded line break in it does
  // that): it gets the router's JSON answer too, never the HTML Not Found page.
  if (/^\/api(\/|$)/.test(new URL(request.url).pathname)) return handleApiRequest(request);
  if (hasMetDiskFull(request)) return diskFullPage(request);

  const nonce = createNonce();
  const language = await getLanguage(request);
  const audience = applyCachePolicy(request, responseHeaders);
  // A signed-out page is rendered whole, for its ETag (and a 304 when the browser has it already).
  const revalidatable = audience === "signed-out" && (request.method === "GET" || request.method === "HEAD");
  // Crawlers and no-JavaScript readers get the whole document at once.
  const waitForAll = revalidatable || isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let outOfTime = false;
    // React's abort is called only when the timer fires, long after it is assigned below.
    const deadline = renderDeadline(() => {
      outOfTime = true;
      abort();
    }, streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <TranslationSourceContext.Provider value={serverTranslationSource(language)}>
          <RemixServer context={remixContext} url={request.url} nonce={nonce} abortDelay={streamTimeout} />
        </TranslationSourceContext.Provider>
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new ChunkPerFlush();
          deadline.watch(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          applySecurityHeaders(responseHeaders, nonce);
          if (revalidatable && responseStatusCode === 200) {
            const chunks: Buffer[] = [];
            body.on("data", (chunk: Buffer) => chunks.push(chunk));
            body.on("end", () =>
              resolve(
                answerSignedOutPage(request, Buffer.concat(chunks).toString("utf8"), nonce, {
                  status: responseStatusCode,
                  headers: responseHeaders,
                }),
              ),
            );
          } else {
            resolve(
              new Response(createReadableStreamFromReadable(body), {
                headers: responseHeaders,
                status: responseStatusCode,
              }),
            );
          }
          pipe(body);
        },
        onShellError(error: unknown) {
          deadline.done();
          // A box too busy to render the page in time says so (503, try again), never a 500.
          if (outOfTime) {
            console.error(
              `[busy] ${request.method} ${new URL(request.url).pathname}: the page's render ran out of time (503)`,
            );
            resolve(busyAnswer(request, BUSY_RENDER_RETRY_SECONDS));
          } else reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}

export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  if (hasMetDiskFull(request)) response = diskFullData(response);
  applySecurityHeaders(response.headers);
  applyCachePolicy(request, response.headers);
  return response;
};

/** Remix's own answers to a method or a path a route does not take (405, 404), and its word on `?_data=`: the request log says them, not a stack. */
const ROUTING_REFUSALS = [
  /^You made an? \w+ request to .+ but did not provide an? `(action|loader)`/,
  /^No route matches URL/,
  // An old client's `?_data=` request: answered as Remix answers it, not a failure of ours.
  /^Warning: Single fetch-enabled apps should not be making \?_data requests/,
];

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  // A refusal of the client's request (4xx: the wrong role, a bad form) is in the request log; nothing failed here.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  const message = error instanceof Error ? error.message : String(error);
  if (ROUTING_REFUSALS.some((pattern) => pattern.test(message.replace(/^Error: /, "")))) return;
  if (noteDiskFull(request, error)) return;
  console.error(`[error] ${request.method} ${new URL(request.url).pathname}`, error);
}
