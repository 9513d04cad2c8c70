import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateDatabase, openDatabase, type DB } from "~/db/client.server";
import { accounts, movies } from "~/db/schema";

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

/**
 * A published, ready title row named by its id (a provider and a category the
 * test has made), with `values` over those defaults.
 */
export function insertTitle(
  db: DB,
  id: string,
  defaults: Pick<typeof movies.$inferInsert, "categoryId"> & Partial<typeof movies.$inferInsert>,
  values: Partial<typeof movies.$inferInsert> = {},
): void {
  db.insert(movies)
    .values({ id, name: id, providerId: "provider0001", status: "ready", approved: true, ...defaults, ...values })
    .run();
}

/** Accounts for a test, by id and name (a viewer unless `role` says otherwise); emails and the rest filled in. */
export function insertAccounts(
  db: DB,
  rows: readonly (Pick<typeof accounts.$inferInsert, "id" | "name"> & Partial<typeof accounts.$inferInsert>)[],
): void {
  db.insert(accounts)
    .values(rows.map((row) => ({ email: `${row.id}@t.test`, phoneNumber: "1", passwordHash: "x", ...row })))
    .run();
}

/** The catalogue tests' "now", and a date that many days before it. */
export const catalogueNow = new Date("2026-11-20T12:00:00Z");
export const daysAgo = (days: number) => new Date(catalogueNow.getTime() - days * 24 * 3600 * 1000);

/** An account's first profile (it has the account's id), as the per-person services take a viewer. */
export function firstProfileOf(accountId: string, children = false) {
  return { id: accountId, profile: { id: accountId, children } };
}

/** What a viewing, comment or rating is written for: an account's first profile. */
export function byFirstProfile(accountId: string) {
  return { accountId, profileId: accountId };
}
