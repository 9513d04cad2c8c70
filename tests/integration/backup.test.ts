import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { migrateDatabase, openDatabase } from "~/db/client.server";
import { auditLog } from "~/db/schema";
import { startReplication } from "../../scripts/litestream";

/**
 * The operator's backups, run as the operator runs them (`npm run backup`,
 * `npm run restore`), against a database another process keeps writing to.
 */
const run = promisify(execFile);
const dirs: string[] = [];
const tempDir = (label: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `kallo-backup-${label}-`));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function script(name: "backup" | "restore", args: string[], env: Record<string, string>) {
  return run(process.execPath, ["--import", "tsx", `scripts/${name}.ts`, ...args], {
    env: { ...process.env, NODE_ENV: "production", SESSION_SECRET: "backup-test-secret", ...env },
  });
}

function liveStorage() {
  const storage = tempDir("live");
  const db = openDatabase(path.join(storage, "data.db"));
  migrateDatabase(db);
  let written = 0;
  const write = () =>
    db
      .insert(auditLog)
      .values({ id: `row${String(++written).padStart(8, "0")}`, action: "test.write" })
      .run();
  return { storage, db, write, count: () => written };
}

const ids = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    return new Set((db.prepare("select id from audit_log").all() as { id: string }[]).map((row) => row.id));
  } finally {
    db.close();
  }
};

describe("npm run backup and npm run restore", () => {
  it("copy a database being written to (every row from before the backup, a sound file), bring the media up to date, and restore only into an empty folder", async () => {
    const live = liveStorage();
    for (let i = 0; i < 2000; i++) live.write();
    const film = path.join(live.storage, "media", "movie00000001", "video.mp4");
    fs.mkdirSync(path.dirname(film), { recursive: true });
    fs.writeFileSync(film, Buffer.alloc(3 * 1024 * 1024, 1));
    fs.writeFileSync(path.join(live.storage, "media", "movie00000001", "poster-card.jpg"), "poster");
    fs.mkdirSync(path.join(live.storage, "tmp"), { recursive: true });
    fs.writeFileSync(path.join(live.storage, "tmp", "half-an-upload.part"), "not kept");

    // Writes go on while the backup runs.
    const before = live.count();
    const writer = setInterval(() => {
      for (let i = 0; i < 50; i++) live.write();
    }, 2);
    const backup = tempDir("copy");
    const env = { STORAGE_DIR: live.storage };
    let output: { stdout: string };
    try {
      output = await script("backup", [backup], env);
    } finally {
      clearInterval(writer);
    }
    expect(live.count()).toBeGreaterThan(before);
    expect(output.stdout).toMatch(/\[backup\] database: [\d.]+ MB copied .* \(integrity ok\)/);
    expect(output.stdout).toMatch(/\[backup\] files: 2 copied \(3\.0 MB\), 0 removed, 0 unchanged/);
    const copied = ids(path.join(backup, "data.db"));
    for (let i = 1; i <= before; i++) expect(copied.has(`row${String(i).padStart(8, "0")}`)).toBe(true);
    expect(fs.existsSync(path.join(backup, "tmp"))).toBe(false);
    // The database copy is one file: no journal or shared-memory file beside it.
    expect(fs.readdirSync(backup).filter((name) => name.startsWith("data.db"))).toEqual(["data.db"]);

    // Again, after a title was removed and another added: only the change moves.
    fs.rmSync(path.join(live.storage, "media", "movie00000001"), { recursive: true });
    fs.mkdirSync(path.join(live.storage, "media", "movie00000002"), { recursive: true });
    fs.writeFileSync(path.join(live.storage, "media", "movie00000002", "video.mp4"), "new film");
    const second = await script("backup", [backup], env);
    expect(second.stdout).toMatch(/files: 1 copied .*, 2 removed, 0 unchanged/);
    expect(fs.readdirSync(path.join(backup, "media"))).toEqual(["movie00000002"]);

    // Into a live folder: refused, nothing touched.
    const refused = await script("restore", [backup], env).catch((error: { code: number; stderr: string }) => error);
    expect(refused).toMatchObject({ code: 1 });
    expect((refused as { stderr: string }).stderr).toMatch(/refused: .* already holds a service/);
    expect(fs.existsSync(path.join(live.storage, "media", "movie00000002"))).toBe(true);

    const fresh = path.join(tempDir("restored"), "storage");
    const restored = await script("restore", [backup], { STORAGE_DIR: fresh });
    expect(restored.stdout).toMatch(/\[restore\] database .* \(integrity ok\), 1 files/);
    expect(ids(path.join(fresh, "data.db")).size).toBeGreaterThanOrEqual(before);
    expect(fs.readFileSync(path.join(fresh, "media", "movie00000002", "video.mp4"), "utf8")).toBe("new film");
    live.db.$client.close();
  });

  it("restores the newest writes from a Litestream replica (--from-replica)", async () => {
    const live = liveStorage();
    const replica = path.join(tempDir("replica"), "replica");
    const replication = startReplication(path.join(live.storage, "data.db"), replica);
    try {
      for (let i = 0; i < 500; i++) live.write();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      for (let i = 0; i < 500; i++) live.write();
      // Litestream ships the WAL every second; the last writes go out before it stops.
      await new Promise((resolve) => setTimeout(resolve, 1500));
    } finally {
      await replication.stop();
    }
    const written = live.count();
    live.db.$client.close();
    const fresh = path.join(tempDir("from-replica"), "storage");
    const restored = await script("restore", ["--from-replica"], {
      STORAGE_DIR: fresh,
      LITESTREAM_REPLICA_URL: replica,
    });
    expect(restored.stdout).toMatch(/from the replica/);
    expect(ids(path.join(fresh, "data.db")).size).toBe(written);
  });
});
