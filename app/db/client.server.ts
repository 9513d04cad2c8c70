import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { getEnv } from "~/utils/env.server";
import { isDiskFullError, releaseDatabaseRoom } from "./database-room.server";
import * as schema from "./schema";

export type DB = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/** Open a database file with the pragmas every connection of ours uses. */
export function openDatabase(filePath: string): DB {
  fs.mkdirSync(path.dirname(filePath), { recursive: true });
  const sqlite = new Database(filePath);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  // Sorting and grouping in memory, never in temporary files: a read needs no disk space.
  sqlite.pragma("temp_store = MEMORY");
  makeRoomOnFullDisk(sqlite, filePath);
  const db = drizzle(sqlite, { schema }) as DB;
  // Every transaction takes the write lock when it begins (BEGIN IMMEDIATE), waiting up to the busy
  // timeout for it. When several processes write (WORKERS > 1), a transaction begun the default way
  // that reads and then writes fails at once with SQLITE_BUSY if another process wrote in between.
  const transaction = db.transaction.bind(db);
  db.transaction = ((work, config) => {
    const run = () => transaction(work, { behavior: "immediate", ...config });
    try {
      return run();
    } catch (error) {
      // The disk was full and the database's room has just been given up: the whole transaction once more.
      if (isDiskFullError(error) && releaseDatabaseRoom(filePath)) return run();
      throw error;
    }
  }) as typeof db.transaction;
  return db;
}

/**
 * A statement that fails because the disk is full gives the database's room
 * up (database-room.server.ts) and runs once more — unless SQLite rolled its
 * transaction back, which the transaction's own retry (above) then repeats.
 */
function makeRoomOnFullDisk(sqlite: Database.Database, filePath: string): void {
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    const statement = prepare(source);
    for (const method of ["run", "get", "all"] as const) {
      const original = statement[method] as (...args: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[method] = function (this: unknown, ...args: unknown[]) {
        const inTransaction = sqlite.inTransaction;
        try {
          return original.apply(this, args);
        } catch (error) {
          if (!isDiskFullError(error) || !releaseDatabaseRoom(filePath)) throw error;
          if (inTransaction && !sqlite.inTransaction) throw error;
          return original.apply(this, args);
        }
      };
    }
    return statement;
  }) as typeof sqlite.prepare;
}

/**
 * The migrations folder: the running build's own copy (`.builds/<time>/drizzle`, named by KALLO_BUILD_DIR,
 * which `npm start` sets), so a server keeps the migrations of the code it runs whatever the checkout holds
 * later; `drizzle/` at the project root when no build is named (the tests, the scripts).
 */
export function migrationsFolder(): string {
  const buildDir = process.env.KALLO_BUILD_DIR;
  if (buildDir && fs.existsSync(path.join(buildDir, "drizzle", "meta", "_journal.json")))
    return path.join(buildDir, "drizzle");
  return path.resolve(process.cwd(), "drizzle");
}

/**
 * Take the migrations of `folder` (the running build's by default) the database has not taken.
 * Foreign keys are off meanwhile, as SQLite's way to change a table asks: the migrations run in one
 * transaction, where `PRAGMA foreign_keys` does nothing, and a table rebuilt by copy-and-drop would
 * otherwise take every row that points at it with it (ON DELETE CASCADE). They are checked after.
 */
export function migrateDatabase(db: DB, folder = migrationsFolder()): void {
  db.$client.pragma("foreign_keys = OFF");
  try {
    migrate(db, { migrationsFolder: folder });
    const broken = db.$client.pragma("foreign_key_check") as { table: string; parent: string }[];
    if (broken.length > 0)
      throw new Error(
        `After the migrations, ${broken.length} row(s) point at rows that do not exist (first: ${broken[0].table} → ${broken[0].parent})`,
      );
  } finally {
    db.$client.pragma("foreign_keys = ON");
  }
}

// One connection per process; kept on globalThis so development reloads reuse it.
const globalForDb = globalThis as unknown as { __kalloDb?: DB };

export function getDb(): DB {
  if (!globalForDb.__kalloDb) {
    globalForDb.__kalloDb = openDatabase(getEnv().databasePath);
  }
  return globalForDb.__kalloDb;
}

/** Close this process's database (the last step of a clean stop); a later getDb() opens it again. */
export function closeDb(): void {
  const db = globalForDb.__kalloDb;
  globalForDb.__kalloDb = undefined;
  db?.$client.close();
}
