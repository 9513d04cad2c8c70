import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../bench/lib";
import { migrateDatabase, openDatabase } from "~/db/client.server";
import { categories, jobs } from "~/db/schema";
import { hashPassword } from "~/services/passwords.server";
import { freePort } from "../fixtures/ports";
import { call, login, PASSWORD, seedAccount, seedMovie } from "./helpers";
import type { ApiWorld } from "./helpers";

/**
 * The disk filled by something else (a log, a backup, a copied file) while
 * the service runs, on a small file system of its own (a tmpfs: this needs
 * root, as CI and the development box have). Before the fill, while full, and
 * after space returns: sign-in, browsing, playback, an upload, a media job,
 * /healthz. The table is printed (the drill's record); the assertions are
 * what must hold.
 */
const canMount = process.getuid?.() === 0 && fs.existsSync("/bin/mount");
const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-full-disk-"));
let mounted = false;
let world: ApiWorld;

beforeAll(async () => {
  if (!canMount) return;
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=96m", "tmpfs", mountPoint]);
  mounted = true;
  const root = path.join(mountPoint, "storage");
  const db = openDatabase(path.join(root, "data.db"));
  migrateDatabase(db);
  db.insert(categories).values({ id: "apicategory0001", name: "Drama", slug: "drama" }).run();
  const port = await freePort();
  const env = { DISK_RESERVE_MB: "4", DATABASE_ROOM_MB: "8", WORKERS: "1" };
  world = {
    root,
    db,
    port,
    server: await startServer(root, port, { env }),
    url: `http://127.0.0.1:${port}`,
    passwordHash: await hashPassword(PASSWORD),
    categoryId: "apicategory0001",
    fixtures: fs.mkdtempSync(path.join(os.tmpdir(), "kallo-api-fixtures-full-disk-")),
    restart: async () => undefined,
    stop: async () => {
      await world.server.stop();
      db.$client.close();
      fs.rmSync(world.fixtures, { recursive: true, force: true });
    },
  };
}, 180_000);
afterAll(async () => {
  await world?.stop();
  if (mounted) execFileSync("umount", ["-l", mountPoint]);
  fs.rmSync(mountPoint, { recursive: true, force: true });
});

type Row = {
  phase: string;
  signIn: number;
  browse: number;
  play: number;
  upload: number;
  progress: number;
  signOut: number;
  health: string;
};

describe.skipIf(!canMount)("a full disk (a drill on a 96 MB tmpfs)", () => {
  it("keeps sign-in, sign-out, browsing, playback and progress working, refuses uploads with 507, and its jobs wait and go on", async () => {
    // One viewer per phase: a free plan plays on one device at a time, and each phase signs in anew.
    const viewers = Array.from({ length: 5 }, () => seedAccount(world, "viewer"));
    const provider = await login(world, seedAccount(world, "provider"));
    const movie = await seedMovie(world, provider.account.id, { withFiles: true });
    // The room is made a second after start.
    await expect.poll(() => fs.existsSync(path.join(world.root, ".database-room")), { timeout: 15_000 }).toBe(true);

    const signInAs = async () => {
      const viewer = viewers.shift()!;
      const response = await fetch(`${world.url}/login`, {
        method: "POST",
        body: new URLSearchParams({ email: viewer.email, password: PASSWORD }),
        redirect: "manual",
      });
      const cookie =
        response.headers
          .getSetCookie()
          .find((value) => value.startsWith("kallo_session="))
          ?.split(";")[0] ?? "";
      return { status: response.status, cookie };
    };
    /** One viewer's round; `signedIn` goes on with a viewer signed in before, when this sign-in could not be saved. */
    const probe = async (phase: string, signedIn?: string): Promise<Row> => {
      const signIn = await signInAs();
      const cookie = signIn.cookie || signedIn || "";
      const browse = await fetch(`${world.url}/movies`, { headers: { Cookie: cookie }, redirect: "manual" });
      const play = await fetch(`${world.url}/api/files/${movie.id}.mp4`, {
        headers: { Cookie: cookie, Range: "bytes=0-999" },
      });
      await play.arrayBuffer();
      const progress = await call(world, "/watch-progress", {
        form: { movieId: movie.id, positionSeconds: "1", event: "progress" },
        cookie,
      });
      const upload = await fetch(`${world.url}/provider/uploads/tus`, {
        method: "POST",
        headers: {
          "Tus-Resumable": "1.0.0",
          Authorization: `Bearer ${provider.token}`,
          "Upload-Length": String(20 * 1024 * 1024),
          "Upload-Metadata": `name ${btoa("Drill")},Category ${btoa(world.categoryId)},filename ${btoa("drill.mp4")}`,
        },
      });
      const signOut = await fetch(`${world.url}/logout`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: world.url },
        redirect: "manual",
      });
      const health = (await (await fetch(`${world.url}/healthz`)).json()) as { status: string };
      return {
        phase,
        signIn: signIn.status,
        browse: browse.status,
        play: play.status,
        upload: upload.status,
        progress: progress.status,
        signOut: signOut.status,
        health: health.status,
      };
    };

    const rows: Row[] = [await probe("before")];
    // Something else fills the disk to its last byte.
    const filler = path.join(mountPoint, "filler.log");
    const fill = () => {
      const chunk = Buffer.alloc(1024 * 1024, 7);
      const fd = fs.openSync(filler, "a");
      try {
        for (;;) fs.writeSync(fd, chunk);
      } catch {
        // ENOSPC: full.
      }
      try {
        for (;;) fs.writeSync(fd, chunk.subarray(0, 4096));
      } catch {
        // Not a page left.
      }
      fs.closeSync(fd);
    };
    fill();
    const jobId = "drillladder0001";
    // A media job queued while the disk is full (by another process: this test's own connection, on its room).
    world.db.insert(jobs).values({ id: jobId, kind: "make-ladder", movieId: movie.id, payload: {} }).run();
    rows.push(await probe("disk full"));
    // Signed in while the room lasts, for the round after it is gone.
    const earlier = await signInAs();
    const health = (await (await fetch(`${world.url}/healthz`)).json()) as { status: string; reasons?: string[] };
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const jobWhileFull = world.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, jobId)).get()?.status;
    // The room the database gave up is filled too: a write that truly cannot happen is a 503, never a 500.
    fill();
    rows.push(await probe("room used up", earlier.cookie));
    const aliveWhileFull = world.server.process.exitCode === null;

    fs.rmSync(filler);
    await expect
      .poll(() => world.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, jobId)).get()?.status, {
        timeout: 60_000,
        interval: 500,
      })
      .toBe("done");
    rows.push(await probe("space back"));
    console.log(
      [
        "full-disk drill (96 MB tmpfs, DISK_RESERVE_MB=4, DATABASE_ROOM_MB=8)",
        "| phase | sign-in | browse | play | progress | upload | sign-out | healthz |",
        "|---|---|---|---|---|---|---|---|",
        ...rows.map(
          (row) =>
            `| ${row.phase} | ${row.signIn} | ${row.browse} | ${row.play} | ${row.progress} | ${row.upload} | ${row.signOut} | ${row.health} |`,
        ),
        `job queued while full: ${jobWhileFull} while full, done after; server alive while full: ${aliveWhileFull}`,
        `healthz while full: ${JSON.stringify(health)}`,
      ].join("\n"),
    );

    for (const row of rows) {
      // With no room left at all, what must write may say so (503); what only reads goes on.
      const orFull = (status: number) => (row.phase === "room used up" ? [status, 503] : [status]);
      expect(orFull(303), `${row.phase}: sign-in`).toContain(row.signIn);
      expect(row.browse, row.phase).toBe(200);
      expect(orFull(206), `${row.phase}: play`).toContain(row.play);
      expect(orFull(200), `${row.phase}: progress`).toContain(row.progress);
      expect(orFull(303), `${row.phase}: sign-out`).toContain(row.signOut);
    }
    expect(rows.map((row) => row.upload)).toEqual([201, 507, 507, 201]);
    expect(rows.map((row) => row.health)).toEqual(["ok", "degraded", "degraded", "ok"]);
    expect(health.reasons?.join(" ")).toMatch(/disk is full/);
    expect(jobWhileFull).toBe("queued");
    expect(aliveWhileFull).toBe(true);
  });
});
