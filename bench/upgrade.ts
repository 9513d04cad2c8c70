/**
 * `npm run bench:upgrade -- [--url http://localhost:3000] [--clients 8] -- <command …>`:
 * requests refused while a command runs on a serving box — `npm run
 * upgrade`, `npm run reload`, a restart, two builds with worker kills.
 *
 * Clients ask, one request after the other each, for the home page, /healthz,
 * a script of the page (whole and as a byte range) and, with `--film
 * <path>`, a film's byte range, over kept-alive connections as browsers do;
 * from before the command starts until two seconds after it ends. Prints
 * the answers by kind: refused connections, connections cut, 5xx, 404s of a
 * page's own script, and how long the longest answer took.
 *
 * With `--upload <film> --provider <email>:<password> --category <id>` a provider's phone also
 * sends that film by tus at `--upload-kbps` (default 400) all the while, as the
 * upload page does (8 MiB requests, asking where it stands after a cut): printed
 * is whether it finished, what interrupted it and what it sent twice.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { pacedUpload, type PacedUploadResult } from "../tests/fixtures/paced-upload";

const args = process.argv.slice(2);
const split = args.indexOf("--");
const own = split >= 0 ? args.slice(0, split) : args;
const command = split >= 0 ? args.slice(split + 1) : [];
const option = (name: string, fallback: string) => {
  const index = own.indexOf(name);
  return index >= 0 ? own[index + 1] : fallback;
};
const base = new URL(option("--url", "http://localhost:3000"));
const clients = Number(option("--clients", "8"));
const film = option("--film", "");
const uploadFile = option("--upload", "");
const provider = option("--provider", "");
const category = option("--category", "");
const uploadKbps = Number(option("--upload-kbps", "400"));
if (command.length === 0 || (uploadFile && (!provider.includes(":") || !category))) {
  console.error(
    "Usage: npm run bench:upgrade -- [--url U] [--clients N] [--film /stream/…] [--upload <film> --provider <email>:<password> --category <id> [--upload-kbps K]] -- <command …>",
  );
  process.exit(2);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
const counts = { ok: 0, refused: 0, cut: 0, server5xx: 0, script404: 0, other: 0 };
let slowest = 0;

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(new URL(path, base), { agent, headers, timeout: 30_000 }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        if (body.length < 200_000) body += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      response.on("error", reject);
    });
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", reject);
  });
}

let script = "";
async function ask(path: string, headers?: Record<string, string>, isScript = false) {
  const started = performance.now();
  try {
    const { status, body } = await get(path, headers);
    slowest = Math.max(slowest, performance.now() - started);
    if (status >= 500) counts.server5xx += 1;
    else if (isScript && status === 404) counts.script404 += 1;
    else if (status < 400) counts.ok += 1;
    else counts.other += 1;
    if (path === "/" && status === 200) {
      // The page's own entry script: what a browser fetches next (the build's, whichever worker answered).
      const found = /src="(\/build\/[^"]+\.js)"|href="(\/build\/[^"]+\.js)"/.exec(body);
      if (found) script = found[1] ?? found[2];
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ECONNREFUSED") counts.refused += 1;
    else if (code === "ECONNRESET" || code === "EPIPE" || (error as Error).message === "socket hang up")
      counts.cut += 1;
    else counts.other += 1;
  }
}

let running = true;
async function client() {
  while (running) {
    await ask("/");
    await ask("/healthz");
    if (script) {
      await ask(script, {}, true);
      await ask(script, { Range: "bytes=0-1023" }, true);
    }
    if (film) await ask(film, { Range: "bytes=0-65535" });
  }
}

/** A provider's phone sending a film all the while (tus, as the upload page does). */
async function upload(): Promise<PacedUploadResult & { title: string }> {
  const [email, ...rest] = provider.split(":");
  const signedIn = await fetch(new URL("/api/cp/login", base), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: rest.join(":") }),
  });
  if (!signedIn.ok) throw new Error(`the provider's sign-in answered ${signedIn.status}`);
  const { token } = (await signedIn.json()) as { token: string };
  const bytes = fs.readFileSync(uploadFile);
  const title = `Sent during an upgrade ${new Date().toISOString()}`;
  const b64 = (value: string) => Buffer.from(value).toString("base64");
  const created = await fetch(new URL("/provider/uploads/tus", base), {
    method: "POST",
    headers: {
      "Tus-Resumable": "1.0.0",
      Authorization: `Bearer ${token}`,
      "Upload-Length": String(bytes.length),
      "Upload-Metadata": `name ${b64(title)},Category ${b64(category)},filename ${b64(path.basename(uploadFile))}`,
    },
  });
  if (created.status !== 201) throw new Error(`creating the upload answered ${created.status}`);
  const result = await pacedUpload({
    location: new URL(created.headers.get("location")!, base).href,
    headers: { Authorization: `Bearer ${token}` },
    bytes,
    bytesPerSecond: (uploadKbps * 1000) / 8,
    timeoutMs: 30 * 60_000,
  });
  return { ...result, title };
}

const loops = Array.from({ length: clients }, () => client());
const uploading = uploadFile ? upload() : null;
await new Promise((resolve) => setTimeout(resolve, 2_000));
const started = performance.now();
const exit = await new Promise<number>((resolve) => {
  const child = spawn(command[0], command.slice(1), { stdio: "inherit" });
  child.on("exit", (code) => resolve(code ?? 1));
});
const took = performance.now() - started;
await new Promise((resolve) => setTimeout(resolve, 2_000));
// The clients ask until the upload ends too.
const sent = await uploading?.catch((error: Error) => error);
running = false;
await Promise.all(loops);
agent.destroy();

const total = Object.values(counts).reduce((sum, value) => sum + value, 0);
console.log(`\n[bench:upgrade] \`${command.join(" ")}\` exited ${exit} after ${(took / 1000).toFixed(1)} s`);
console.log(
  `[bench:upgrade] ${total} requests from ${clients} clients: ${counts.ok} answered, ${counts.refused} refused, ${counts.cut} cut, ${counts.server5xx} × 5xx, ${counts.script404} × 404 for the page's script, ${counts.other} other; slowest answer ${Math.round(slowest)} ms`,
);
if (sent instanceof Error) console.log(`[bench:upgrade] the upload failed: ${sent.message}`);
else if (sent)
  console.log(
    `[bench:upgrade] upload of ${fs.statSync(uploadFile).size} bytes at ${uploadKbps} kbps: ${sent.finished ? "finished" : "NOT finished"} in ${sent.seconds.toFixed(1)} s as "${sent.title}"; ${sent.interruptions.length} interruptions (${sent.interruptions.join(", ") || "none"}), ${sent.shortAnswers} early answers, ${sent.resentBytes} bytes sent twice\n  ${sent.answers.join("\n  ")}`,
  );
