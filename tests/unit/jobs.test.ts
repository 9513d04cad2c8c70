import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrateDatabase, openDatabase, type DB } from "~/db/client.server";
import { jobs } from "~/db/schema";
import {
  claimNextJob,
  enqueueJob,
  PermanentJobError,
  recoverInterruptedJobs,
  startJobRunner,
} from "~/services/jobs.server";

let dir: string;
let db: DB;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-jobs-"));
  db = openDatabase(path.join(dir, "data.db"));
  migrateDatabase(db);
});
afterEach(() => {
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const statusOf = (id: string) => db.select().from(jobs).where(eq(jobs.id, id)).get();

describe("the persisted job queue", () => {
  it("runs queued jobs oldest first and records success", async () => {
    const order: string[] = [];
    const first = enqueueJob(db, "process", { payload: { n: 1 } });
    const second = enqueueJob(db, "process", { payload: { n: 2 } });
    const runner = startJobRunner(
      db,
      { process: async (job) => void order.push(String(job.payload.n)) },
      { concurrency: 1, pollMs: 50 },
    );
    await runner.idle();
    await runner.stop();
    expect(order).toEqual(["1", "2"]);
    expect(statusOf(first)?.status).toBe("done");
    expect(statusOf(second)?.status).toBe("done");
  });

  it("puts a job that was running when the process stopped back in the queue, and runs it at the next start", async () => {
    const id = enqueueJob(db, "process");
    // A process claims the job, then dies before finishing.
    expect(claimNextJob(db, ["process"])?.id).toBe(id);
    expect(statusOf(id)?.status).toBe("running");
    expect(claimNextJob(db, ["process"])).toBeNull();

    // Reopen the database as a new process would.
    db.$client.close();
    db = openDatabase(path.join(dir, "data.db"));
    let ran = 0;
    const started = Date.now();
    const runner = startJobRunner(
      db,
      { process: async () => void ran++ },
      { concurrency: 1, pollMs: 50, crashBackoffMs: (attempts) => attempts * 300 },
    );
    await runner.idle();
    await runner.stop();
    expect(ran).toBe(1);
    // Not at once: after a wait that grows with the tries (here 300 ms for the first), the interrupted try counted.
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(statusOf(id)).toMatchObject({ status: "done", attempts: 2 });
    expect(recoverInterruptedJobs(db)).toBe(0);
  });

  it("retries a failing job, then records the reason; a permanent error is not retried", async () => {
    const flaky = enqueueJob(db, "flaky");
    const broken = enqueueJob(db, "broken");
    let flakyRuns = 0;
    let brokenRuns = 0;
    const runner = startJobRunner(
      db,
      {
        flaky: async () => {
          flakyRuns++;
          throw new Error("disk hiccup");
        },
        broken: async () => {
          brokenRuns++;
          throw new PermanentJobError("not a video");
        },
      },
      { concurrency: 1, pollMs: 20 },
    );
    await runner.idle();
    await runner.stop();
    expect(flakyRuns).toBe(3);
    expect(statusOf(flaky)).toMatchObject({ status: "failed", error: "disk hiccup", attempts: 3 });
    expect(brokenRuns).toBe(1);
    expect(statusOf(broken)).toMatchObject({ status: "failed", error: "not a video" });
  });

  it("never runs more jobs at once than allowed", async () => {
    for (let i = 0; i < 5; i++) enqueueJob(db, "slow");
    let active = 0;
    let peak = 0;
    const runner = startJobRunner(
      db,
      {
        slow: async () => {
          active++;
          peak = Math.max(peak, active);
          await new Promise((resolve) => setTimeout(resolve, 20));
          active--;
        },
      },
      { concurrency: 2, pollMs: 10 },
    );
    await runner.idle();
    await runner.stop();
    expect(peak).toBe(2);
    expect(
      db
        .select()
        .from(jobs)
        .all()
        .every((job) => job.status === "done"),
    ).toBe(true);
  });
});

describe("a job runner when the database cannot write (a full disk)", () => {
  it("never throws at start when the queue cannot be recovered, waits, and goes on once the database writes again", async () => {
    const interrupted = enqueueJob(db, "process");
    claimNextJob(db, ["process"]);
    // Writes fail now: what a full disk does to the recovery at start.
    db.$client.pragma("query_only = ON");
    const done: string[] = [];
    const runner = startJobRunner(
      db,
      { process: async (job) => void done.push(job.id) },
      { concurrency: 1, pollMs: 50, crashBackoffMs: () => 0 },
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(runner.waiting()).toMatch(/the database failed/);
    expect(done).toEqual([]);
    db.$client.pragma("query_only = OFF");
    await expect.poll(() => done, { timeout: 5_000 }).toEqual([interrupted]);
    expect(runner.waiting()).toBeNull();
    await runner.stop();
  });

  it("puts a job whose work met a full disk back in the queue, without counting the try, and waits while the disk is full", async () => {
    const id = enqueueJob(db, "process");
    let full = false;
    let tries = 0;
    const runner = startJobRunner(
      db,
      {
        process: async () => {
          tries++;
          if (tries === 1) {
            full = true;
            throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
          }
        },
      },
      { concurrency: 1, pollMs: 50, waitReason: () => (full ? "the disk is full" : null) },
    );
    await expect.poll(() => runner.waiting(), { timeout: 5_000 }).toBe("the disk is full");
    expect(statusOf(id)).toMatchObject({ status: "queued", attempts: 0 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(tries).toBe(1);
    full = false;
    await expect.poll(() => statusOf(id)?.status, { timeout: 5_000 }).toBe("done");
    expect(tries).toBe(2);
    await runner.stop();
  });
});
