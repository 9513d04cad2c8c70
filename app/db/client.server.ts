import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { getEnv } from "~/utils/env.server";
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
  const db = drizzle(sqlite, { schema }) as DB;
  // Every transaction takes the write lock when it begins (BEGIN IMMEDIATE), waiting up to the busy
  // timeout for it. When several processes write (WORKERS > 1), a transaction begun the default way
  // that reads and then writes fails at once with SQLITE_BUSY if another process wrote in between.
  const transaction = db.transaction.bind(db);
  db.transaction = ((work, config) => transaction(work, { behavior: "immediate", ...config })) as typeof db.transaction;
  return db;
}

/** The migrations folder: `drizzle/` at the project root, wherever the code runs from. */
export function migrationsFolder(): string {
  return path.resolve(process.cwd(), "drizzle");
}

export function migrateDatabase(db: DB): void {
  migrate(db, { migrationsFolder: migrationsFolder() });
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
