/**
 * The container's smoke test, as an operator meets the image: a fresh volume, health, the administrator's
 * sign-in, plans from the page, a provider's upload processed by the image's own ffmpeg, a viewer's byte
 * range, `stop` in the middle of an upload (exit 0 inside the engine's own 10 s), a restart on the same
 * volume that keeps the data and the sessions, and a storage folder the app may not write. Prints the
 * image's size and each step's time; exits non-zero on the first thing that does not hold.
 *
 *   node --import tsx scripts/container/smoke.ts <image>       (scripts/container/ci.sh runs it)
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { engineCommand } from "./engine";

const image = process.argv[2] ?? "localhost/kallo:ci";
const { engine, runFlags } = engineCommand();
const name = `kallo-smoke-${process.pid}`;
const volume = `kallo-smoke-${process.pid}`;
const port = 3900 + (process.pid % 90);
const base = `http://127.0.0.1:${port}`;
const secret = "smoke-secret-0123456789abcdef0123456789abcdef";
const admin = { email: "admin@smoke.example", password: "smoke-admin-password-1" };
const provider = { email: "provider@smoke.example", password: "smoke-provider-password-1" };
const viewer = { email: "viewer@smoke.example", password: "smoke-viewer-password-1" };
const work = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-smoke-"));

const timings: Array<[string, number]> = [];
async function step<T>(label: string, run: () => Promise<T> | T): Promise<T> {
  const started = Date.now();
  process.stdout.write(`[smoke] ${label} … `);
  const result = await run();
  const seconds = (Date.now() - started) / 1000;
  timings.push([label, seconds]);
  console.log(`${seconds.toFixed(1)} s`);
  return result;
}

function run(args: string[], options: { allowFailure?: boolean } = {}): string {
  const result = spawnSync(engine, args, { encoding: "utf8" });
  if (result.status !== 0 && !options.allowFailure)
    throw new Error(`${engine} ${args.join(" ")} failed (${result.status}): ${result.stderr}`);
  return `${result.stdout}`.trim();
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

function startContainer(extra: string[] = []): void {
  run([
    "run",
    "-d",
    "--name",
    name,
    ...runFlags,
    "-p",
    `127.0.0.1:${port}:3000`,
    "-e",
    `SESSION_SECRET=${secret}`,
    "-e",
    `ADMIN_EMAIL=${admin.email}`,
    "-e",
    `ADMIN_PASSWORD=${admin.password}`,
    "-v",
    `${volume}:/app/storage`,
    ...extra,
    image,
  ]);
}

async function untilHealthy(timeoutMs = 60_000): Promise<{ version: string; commit?: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(`${base}/healthz`);
      if (response.ok) return (await response.json()) as { version: string; commit?: string };
    } catch {
      // Not listening yet.
    }
    const state = run(["inspect", "-f", "{{.State.Status}}", name], { allowFailure: true });
    if (state === "exited") throw new Error(`the container stopped:\n${run(["logs", name], { allowFailure: true })}`);
    if (Date.now() > deadline) throw new Error(`no health after ${timeoutMs} ms:\n${run(["logs", name])}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the API's answers are read field by field, as a client reads them
type Answer = { status: number; text: string; headers: Headers; json: () => any };
async function call(
  pathname: string,
  options: {
    method?: string;
    form?: Record<string, string>;
    json?: unknown;
    body?: BodyInit;
    cookie?: string;
    token?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  let body = options.body;
  if (options.form) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    headers.Origin = base;
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.json);
  }
  if (options.cookie) headers.Cookie = options.cookie;
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  const method = options.method ?? (body ? "POST" : "GET");
  const response = await fetch(`${base}${pathname}`, { method, headers, body, redirect: "manual" });
  const text = await response.text();
  return { status: response.status, text, headers: response.headers, json: () => JSON.parse(text) };
}

function sessionCookie(answer: Answer): string {
  const cookie = answer.headers.getSetCookie().find((value) => value.startsWith("kallo_session="));
  check(cookie, `no session cookie (${answer.status}): ${answer.text.slice(0, 300)}`);
  return cookie.split(";")[0]!;
}

function makeFilm(): Buffer {
  const file = path.join(work, "film.mp4");
  execFileSync("ffmpeg", [
    ...["-y", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=4"],
    ...["-f", "lavfi", "-i", "sine=frequency=440:duration=4", "-c:v", "libx264", "-preset", "veryfast"],
    ...["-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", "-movflags", "+faststart", file],
  ]);
  return fs.readFileSync(file);
}

function poster(): Buffer {
  const file = path.join(work, "poster.jpg");
  execFileSync("ffmpeg", [
    "-y",
    "-v",
    "error",
    "-f",
    "lavfi",
    "-i",
    "color=c=0x225588:size=640x360",
    "-frames:v",
    "1",
    file,
  ]);
  return fs.readFileSync(file);
}

function filmForm(fields: Record<string, string>, film: Blob): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append("file", film, "film.mp4");
  form.append("file", new Blob([new Uint8Array(poster())]), "poster.jpg");
  return form;
}

function removeContainer(): void {
  run(["rm", "-f", "-t", "0", name], { allowFailure: true });
  run(["volume", "rm", "-f", volume], { allowFailure: true });
}

async function main(): Promise<void> {
  const bytes = Number(run(["image", "inspect", "-f", "{{.Size}}", image]));
  const labels = JSON.parse(run(["image", "inspect", "-f", "{{json .Labels}}", image])) as Record<string, string>;
  console.log(
    `[smoke] ${image}: ${(bytes / 1e6).toFixed(0)} MB, version ${labels["org.opencontainers.image.version"]}, commit ${labels["org.opencontainers.image.revision"]}`,
  );
  removeContainer();
  run(["volume", "create", volume]);

  const health = await step("start on a fresh volume until /healthz answers", async () => {
    startContainer();
    return untilHealthy();
  });
  check(health.version === labels["org.opencontainers.image.version"], `/healthz says version ${health.version}`);
  check(
    health.commit === labels["org.opencontainers.image.revision"],
    `/healthz says commit ${health.commit}, the image's label ${labels["org.opencontainers.image.revision"]}`,
  );
  const logs = run(["logs", name]);
  check(logs.includes(health.version), "the start log names the version");

  const adminCookie = await step("the administrator signs in on the page", async () => {
    const answer = await call("/login", { form: admin });
    check(
      answer.status === 302 || answer.status === 303,
      `sign-in answered ${answer.status}: ${answer.text.slice(0, 300)}`,
    );
    return sessionCookie(answer);
  });

  await step("plans made on the admin page, shown on /plans", async () => {
    const made = await call("/admin/Selectplan", { form: { intent: "starter" }, cookie: adminCookie });
    check(made.status === 303, `starter plans answered ${made.status}: ${made.text.slice(0, 300)}`);
    const plans = await call("/plans");
    check(plans.status === 200 && plans.text.includes("₦"), `/plans answered ${plans.status} without naira prices`);
  });

  const { providerToken, categoryId } = await step("a category and a provider account", async () => {
    const category = await call("/admin/moviecategory", {
      form: { intent: "create", name: "Drama" },
      cookie: adminCookie,
    });
    check(category.status === 303, `category answered ${category.status}`);
    const page = await call("/admin/moviecategory", { cookie: adminCookie });
    const id = /name="categoryId" value="([^"]+)"/.exec(page.text)?.[1];
    check(id, "the category's id is on its page");
    const approve = await call("/admin/movies", { form: { intent: "autoApprove", value: "on" }, cookie: adminCookie });
    check(approve.status < 400, `auto-approve answered ${approve.status}`);
    const adminLogin = await call("/api/user/login", { json: admin });
    const registered = await call("/api/cp/register", {
      json: { providerName: "Smoke Films", ...provider, phoneNumber: "08030000000", password2: provider.password },
      token: adminLogin.json().token,
    });
    check(registered.status < 300, `provider registration answered ${registered.status}: ${registered.text}`);
    const login = await call("/api/cp/login", { json: provider });
    check(login.status === 200, `provider sign-in answered ${login.status}`);
    return { providerToken: login.json().token as string, categoryId: id };
  });

  const film = makeFilm();
  const filename = await step("a provider's upload, processed by the image's ffmpeg until published", async () => {
    const form = filmForm(
      { name: "Smoke", Category: categoryId, Description: "A smoke test", releaseYear: "2026" },
      new Blob([new Uint8Array(film)]),
    );
    const answer = await call("/api/upload/movies", { body: form, token: providerToken });
    check(answer.status === 201, `upload answered ${answer.status}: ${answer.text}`);
    const deadline = Date.now() + 120_000;
    for (;;) {
      const listed = (await call("/api/movies/all")).json() as Array<{ MovieName: string; filename: string }>;
      const found = listed.find((title) => title.MovieName === "Smoke");
      if (found) return found.filename;
      check(Date.now() < deadline, "the title was not published within 120 s");
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });

  const viewerToken = await step("a viewer's byte range of the film", async () => {
    const registered = await call("/api/user/register", {
      json: { name: "Smoke Viewer", ...viewer, phoneNumber: "08030000001", password2: viewer.password },
    });
    check(registered.status < 300, `viewer registration answered ${registered.status}: ${registered.text}`);
    const token = (await call("/api/user/login", { json: viewer })).json().token as string;
    const range = await call(`/api/files/${filename}`, { token, headers: { Range: "bytes=0-99" } });
    check(range.status === 206, `the byte range answered ${range.status}`);
    check(Buffer.byteLength(range.text, "latin1") > 0 && range.headers.get("content-length") === "100", "100 bytes");
    return token;
  });

  const stop = await step("stop during an upload", async () => {
    // An upload that sends its first half at once, then trickles: still under way when the stop comes.
    const whole = filmForm(
      { name: "Cut short", Category: categoryId, Description: "Stopped", releaseYear: "2026" },
      new Blob([new Uint8Array(film)]),
    );
    const encoded = new Uint8Array(await new Response(whole).arrayBuffer());
    const contentType = new Response(whole).headers.get("content-type")!;
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= encoded.length) return controller.close();
        const size = sent === 0 ? encoded.length / 2 : 1024;
        if (sent > 0) await new Promise((resolve) => setTimeout(resolve, 200));
        controller.enqueue(encoded.subarray(sent, sent + size));
        sent += size;
      },
    });
    const upload = fetch(`${base}/api/upload/movies`, {
      method: "POST",
      body,
      headers: { Authorization: `Bearer ${providerToken}`, "Content-Type": contentType },
      duplex: "half",
    } as RequestInit).then(
      (response) => `answered ${response.status}`,
      (error: Error) => `cut (${error.message})`,
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const started = Date.now();
    run(["stop", name]);
    const seconds = (Date.now() - started) / 1000;
    const exitCode = Number(run(["inspect", "-f", "{{.State.ExitCode}}", name]));
    return { seconds, exitCode, upload: await upload };
  });
  console.log(`[smoke]   stop took ${stop.seconds.toFixed(1)} s, exit ${stop.exitCode}; the upload: ${stop.upload}`);
  check(
    stop.exitCode === 0,
    `the container exited ${stop.exitCode} (killed by the engine?):\n${run(["logs", "--tail", "20", name])}`,
  );
  check(stop.seconds < 10, `the stop took ${stop.seconds} s: the engine's 10 s were used up`);

  await step("restart on the same volume: data and sessions kept", async () => {
    run(["start", name]);
    await untilHealthy();
    const dashboard = await call("/admin/dashboard", { cookie: adminCookie });
    check(dashboard.status === 200, `the administrator's session after the restart: ${dashboard.status}`);
    const range = await call(`/api/files/${filename}`, { token: viewerToken, headers: { Range: "bytes=100-199" } });
    check(range.status === 206, `the film after the restart: ${range.status}`);
    const listed = (await call("/api/movies/all")).json() as Array<{ MovieName: string }>;
    check(!listed.some((title) => title.MovieName === "Cut short"), "the upload cut short was not published");
  });
  run(["rm", "-f", "-t", "0", name]);

  await step("a storage folder the app may not write: one line that says what to do", async () => {
    const folder = path.join(work, "root-owned");
    fs.mkdirSync(folder, { mode: 0o755 });
    fs.chownSync(folder, 0, 0);
    const result = spawnSync(
      engine,
      ["run", "--rm", ...runFlags, "-e", `SESSION_SECRET=${secret}`, "-v", `${folder}:/app/storage`, image],
      { encoding: "utf8", timeout: 60_000 },
    );
    const said = `${result.stdout}${result.stderr}`;
    check(result.status !== 0, "the start went on without a writable storage folder");
    check(/chown/.test(said) && /1000/.test(said) && said.includes("/app/storage"), `the start said:\n${said}`);
    check(!/\n\s+at /.test(said), `the start printed a stack trace:\n${said}`);
  });

  console.log("\n| container smoke step | seconds |\n|---|---|");
  for (const [label, seconds] of timings) console.log(`| ${label} | ${seconds.toFixed(1)} |`);
  console.log(`| image size | ${(bytes / 1e6).toFixed(0)} MB |`);
}

try {
  await main();
} catch (error) {
  console.log("");
  console.error(`[smoke] FAILED: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  removeContainer();
  fs.rmSync(work, { recursive: true, force: true });
}
// The upload cut short by the stop may leave its stream's timers behind: the verdict is in.
process.exit(process.exitCode ?? 0);
