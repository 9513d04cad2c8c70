import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateDatabase, openDatabase, type DB } from "~/db/client.server";

/** A migrated database in its own temporary folder; `close()` removes it. */
export function createTestDatabase(): { db: DB; dir: string; close: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-unit-"));
  const db = openDatabase(path.join(dir, "data.db"));
  migrateDatabase(db);
  return {
    db,
    dir,
    close: () => {
      db.$client.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
