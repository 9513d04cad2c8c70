import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import Database from "better-sqlite3";

/** Fill the tables the demo left empty, compact the database and write it gzipped as `<folder>/<name>.db.gz`. */
export function packFixture(file: string, folder: string, name: string): string {
  fillEmptyTables(file);
  const db = new Database(file);
  // Where the version has a media bucket: one title held there, the others on the disk.
  const columns = db.prepare(`PRAGMA table_info("movies")`).all() as { name: string }[];
  if (columns.some((column) => column.name === "media_store"))
    db.prepare(`UPDATE movies SET media_store = 's3' WHERE id = (SELECT id FROM movies ORDER BY id LIMIT 1)`).run();
  db.pragma("journal_mode = DELETE");
  db.exec("VACUUM");
  db.close();
  const out = path.join(folder, `${name}.db.gz`);
  fs.writeFileSync(out, zlib.gzipSync(fs.readFileSync(file), { level: 9 }));
  return out;
}

/** One row in every table the demo left empty, in an order that lets each foreign key point at a row. */
export function fillEmptyTables(file: string): void {
  const db = new Database(file);
  const tables = plainTables(db);
  const empty = new Set(tables.filter((name) => !(db.prepare(`SELECT 1 FROM "${name}" LIMIT 1`).get() as unknown)));
  for (let pass = 0; pass < 4 && empty.size > 0; pass++) {
    for (const table of [...empty]) {
      const columns = db.prepare(`PRAGMA table_info("${table}")`).all() as {
        name: string;
        type: string;
        notnull: number;
        dflt_value: string | null;
        pk: number;
      }[];
      const keys = db.prepare(`PRAGMA foreign_key_list("${table}")`).all() as {
        table: string;
        from: string;
        to: string | null;
      }[];
      const values: Record<string, unknown> = {};
      let blocked = false;
      for (const column of columns) {
        const key = keys.find((candidate) => candidate.from === column.name);
        if (key) {
          const target = key.to ?? "rowid";
          const row = db.prepare(`SELECT "${target}" AS value FROM "${key.table}" LIMIT 1`).get() as
            { value: unknown } | undefined;
          if (!row) {
            if (column.notnull) blocked = true;
            continue;
          }
          values[column.name] = row.value;
        } else if (column.pk && /INT/i.test(column.type)) continue;
        else if (column.dflt_value !== null && !column.pk) continue;
        else if (/INT/i.test(column.type))
          values[column.name] = /_at$|expires|until|since/.test(column.name) ? Date.UTC(2026, 10, 20) : 1;
        else if (/REAL/i.test(column.type)) values[column.name] = 1.5;
        else values[column.name] = `fixture ${table}.${column.name}`;
      }
      if (blocked) continue;
      const names = Object.keys(values);
      try {
        db.prepare(
          `INSERT INTO "${table}" (${names.map((name) => `"${name}"`).join(", ")}) VALUES (${names.map(() => "?").join(", ")})`,
        ).run(...names.map((name) => values[name]));
        empty.delete(table);
      } catch (error) {
        if (pass === 3) console.log(`[fixture] ${table} stays empty: ${(error as Error).message}`);
      }
    }
  }
  db.close();
}

/** The tables that hold rows of their own: not SQLite's, not drizzle's, not the search indexes (rebuilt by design). */
export function plainTables(db: Database.Database): string[] {
  return (
    db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' AND sql NOT LIKE 'CREATE VIRTUAL%'",
      )
      .all() as { name: string }[]
  )
    .map((row) => row.name)
    .filter((name) => !/_fts(_|$)/.test(name));
}
