/**
 * `npm run bench:door` (after `npm run build`): the sign-in door with the
 * default limits and WORKERS=2, as a crowd and as attackers meet it.
 *
 * 1. 200 people sign in at once from one address (a school, a carrier's NAT):
 *    how many were refused, and the time until the last answer.
 * 2. 100 wrong passwords from that address, then its 200 people again: those
 *    on a device that signed in before, and those on a new device.
 * 3. Stuffing: one guess each at 240 accounts from 240 addresses, then from
 *    240 addresses of one IPv6 /64, for 60 s each: guesses answered 401 (a
 *    password checked) per account, scaled to an hour.
 * 4. The longest time any sign-in waited for its answer in all of the above.
 */
import { eq } from "drizzle-orm";
import { accounts } from "../app/db/schema";
import { PASSWORD, prepareStorage, startServer } from "./lib";

const CROWD = Number(process.env.BENCH_CROWD ?? 200);
const STUFFING_SECONDS = Number(process.env.BENCH_STUFFING_SECONDS ?? 60);
let longest = 0;

type Answer = { status: number; ms: number; known: string | null };

async function signIn(url: string, email: string, password: string, address: string, cookie?: string): Promise<Answer> {
  const started = performance.now();
  try {
    const response = await fetch(`${url}/login`, {
      method: "POST",
      body: new URLSearchParams({ email, password }),
      redirect: "manual",
      headers: { "X-Forwarded-For": address, ...(cookie ? { Cookie: cookie } : {}) },
      signal: AbortSignal.timeout(300_000),
    });
    await response.arrayBuffer();
    const ms = performance.now() - started;
    longest = Math.max(longest, ms);
    const known = response.headers.getSetCookie().find((value) => value.startsWith("kallo_known="));
    return { status: response.status, ms, known: known ? known.split(";")[0] : null };
  } catch {
    const ms = performance.now() - started;
    longest = Math.max(longest, ms);
    return { status: 0, ms, known: null };
  }
}

const tally = (answers: Answer[]) => {
  const counts = new Map<number, number>();
  for (const answer of answers) counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${count} × ${status || "no answer"}`).join(", ");
};
const lastMs = (answers: Answer[]) => Math.max(...answers.map((answer) => answer.ms));

const { root, db } = await prepareStorage("door");
const template = db.select().from(accounts).where(eq(accounts.id, "benchviewer0001")).get()!;
const emails = Array.from({ length: Math.max(CROWD, 240) }, (_, i) => `door${i}@bench.test`);
for (const [i, email] of emails.entries())
  db.insert(accounts)
    .values({ ...template, id: `doorviewer${String(i).padStart(5, "0")}`, email })
    .run();
const server = await startServer(root, 3470, { env: { WORKERS: "2" } });
const url = "http://127.0.0.1:3470";
const crowd = emails.slice(0, CROWD);

try {
  const school = "198.51.100.20";
  const first = await Promise.all(crowd.map((email) => signIn(url, email, PASSWORD, school)));
  console.log(
    `[door] ${CROWD} correct sign-ins at once from one address: ${tally(first)}; last answer after ${(lastMs(first) / 1000).toFixed(1)} s`,
  );
  const cookies = first.map((answer) => answer.known ?? undefined);

  const wrong = [];
  for (let i = 0; i < 100; i++) wrong.push(await signIn(url, `nobody${i}@bench.test`, "wrong-password", school));
  console.log(`[door] 100 wrong passwords from that address: ${tally(wrong)}`);
  const knownAgain = await Promise.all(crowd.map((email, i) => signIn(url, email, PASSWORD, school, cookies[i])));
  console.log(
    `[door] then its ${CROWD} people on devices that signed in before: ${tally(knownAgain)}; last after ${(lastMs(knownAgain) / 1000).toFixed(1)} s`,
  );
  const newAgain = await Promise.all(crowd.map((email) => signIn(url, email, PASSWORD, school)));
  console.log(`[door] and on new devices: ${tally(newAgain)}`);

  for (const [label, addressOf] of [
    ["240 addresses", (i: number) => `10.${(i >> 8) & 255}.${i & 255}.${1 + (i % 200)}`],
    ["one /64", (i: number) => `2001:db8:77:1::${(i + 1).toString(16)}`],
  ] as const) {
    // Each kind of stuffing meets the limits afresh (the first would otherwise have filled the brake for the second).
    db.$client.exec("DELETE FROM rate_limits");
    const targets = emails.slice(0, 240);
    const checked = new Map<string, number>();
    const answers: Answer[] = [];
    const until = Date.now() + STUFFING_SECONDS * 1000;
    let round = 0;
    await Promise.all(
      targets.map(async (email, i) => {
        while (Date.now() < until) {
          const answer = await signIn(url, email, `guess-${round++}`, addressOf(i));
          answers.push(answer);
          if (answer.status === 401) checked.set(email, (checked.get(email) ?? 0) + 1);
          if (answer.status === 429) await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
      }),
    );
    const perAccount = [...checked.values()];
    const mean = perAccount.reduce((sum, n) => sum + n, 0) / targets.length;
    // The brake holds for the rest of its 10-minute window once full: each window lets about what this one did.
    console.log(
      `[door] stuffing from ${label} for ${STUFFING_SECONDS} s: ${tally(answers)}; passwords checked per account ${mean.toFixed(1)} (max ${Math.max(0, ...perAccount)}) in this 10-minute window ≈ ${(mean * 6).toFixed(1)} per account per hour`,
    );
  }
  console.log(`[door] the longest any sign-in waited for its answer: ${(longest / 1000).toFixed(1)} s`);
} finally {
  await server.stop();
}
