import fs from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";

/**
 * Which migrations a build carries and which a database has taken: a build
 * never starts on a database a newer version has migrated (its code would
 * answer 500 on every page that reads a changed table and write rows the
 * newer schema does not expect), and a worker never runs code newer than
 * the database's schema.
 *
 * Drizzle records each applied migration by the time its folder was made
 * (`__drizzle_migrations.created_at` = the journal's `when`); a migration is
 * known when its time is in this build's journal.
 */

export type Migration = { tag: string; when: number; stop: string | null };

/** This build's migrations, oldest first; `stop` is why old code cannot run beside it (its `-- kallo:stop` line). */
export function buildMigrations(folder: string): Migration[] {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string; when: number }[];
  };
  return journal.entries.map(({ tag, when }) => {
    const sql = fs.readFileSync(path.join(folder, `${tag}.sql`), "utf8");
    const stop = /^-- kallo:stop (.+)$/m.exec(sql)?.[1]?.trim() ?? null;
    return { tag, when, stop };
  });
}

/** When each migration the database took was made (empty for a new database). */
export function appliedMigrationTimes(sqlite: Database.Database): number[] {
  const table = sqlite
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'")
    .get();
  if (!table) return [];
  return (sqlite.prepare("SELECT created_at FROM __drizzle_migrations").all() as { created_at: number | string }[]).map(
    (row) => Number(row.created_at),
  );
}

export type SchemaState = {
  /** This build's migrations the database has not taken (the start or `npm run upgrade` applies them). */
  pending: Migration[];
  /** Migrations the database took that this build does not know: a newer version migrated it. */
  unknown: number;
  /** The newest version recorded as having started on the database, with its newest migration. */
  databaseVersion: { version: string; migration: string } | null;
};

export function schemaState(sqlite: Database.Database, folder: string): SchemaState {
  const known = buildMigrations(folder);
  const applied = appliedMigrationTimes(sqlite);
  const last = applied.length ? Math.max(...applied) : -Infinity;
  const knownTimes = new Set(known.map((migration) => migration.when));
  return {
    // Drizzle applies what is newer than the database's newest migration: the same rule here.
    pending: known.filter((migration) => migration.when > last),
    unknown: applied.filter((when) => !knownTimes.has(when)).length,
    databaseVersion: recordedVersion(sqlite),
  };
}

function recordedVersion(sqlite: Database.Database): { version: string; migration: string } | null {
  const table = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'kallo_versions'").get();
  if (!table) return null;
  return (
    (sqlite.prepare("SELECT version, migration FROM kallo_versions ORDER BY id DESC LIMIT 1").get() as
      { version: string; migration: string } | undefined) ?? null
  );
}

/** Note that this version started on the database (once per version and migration level). */
export function recordVersion(sqlite: Database.Database, version: string, folder: string): void {
  const known = buildMigrations(folder);
  const migration = known.at(-1)?.tag ?? "";
  const last = recordedVersion(sqlite);
  if (last?.version === version && last.migration === migration) return;
  sqlite.prepare("INSERT INTO kallo_versions (version, migration) VALUES (?, ?)").run(version, migration);
}

/** Why this build must not start on the database, for the operator (null when it may). */
export function refusalToStart(state: SchemaState, build: { version: string }): string | null {
  if (state.unknown === 0) return null;
  const newer = state.databaseVersion
    ? `Kallo ${state.databaseVersion.version} (migration ${state.databaseVersion.migration})`
    : "a newer version of Kallo";
  return [
    `This database was migrated by ${newer}: it has ${state.unknown} migration${state.unknown === 1 ? "" : "s"} that Kallo ${build.version} does not know.`,
    "Running older code on it would fail on the pages that read what changed, and write rows the newer schema does not expect.",
    `Start Kallo ${state.databaseVersion?.version ?? "of that version"} or newer, or go back to the database as it was before the upgrade: npm run rollback (it restores the backup npm run upgrade took and starts the build that matches it).`,
  ].join("\n");
}
