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
 */
import { spawn } from "node:child_process";
import http from "node:http";

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
if (command.length === 0) {
  console.error("Usage: npm run bench:upgrade -- [--url U] [--clients N] [--film /stream/…] -- <command …>");
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

const loops = Array.from({ length: clients }, () => client());
await new Promise((resolve) => setTimeout(resolve, 2_000));
const started = performance.now();
const exit = await new Promise<number>((resolve) => {
  const child = spawn(command[0], command.slice(1), { stdio: "inherit" });
  child.on("exit", (code) => resolve(code ?? 1));
});
const took = performance.now() - started;
await new Promise((resolve) => setTimeout(resolve, 2_000));
running = false;
await Promise.all(loops);
agent.destroy();

const total = Object.values(counts).reduce((sum, value) => sum + value, 0);
console.log(`\n[bench:upgrade] \`${command.join(" ")}\` exited ${exit} after ${(took / 1000).toFixed(1)} s`);
console.log(
  `[bench:upgrade] ${total} requests from ${clients} clients: ${counts.ok} answered, ${counts.refused} refused, ${counts.cut} cut, ${counts.server5xx} × 5xx, ${counts.script404} × 404 for the page's script, ${counts.other} other; slowest answer ${Math.round(slowest)} ms`,
);
