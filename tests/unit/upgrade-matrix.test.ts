import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import type Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { migrateDatabase, migrationsFolder, openDatabase, type DB } from "~/db/client.server";
import { recordVersion, refusalToStart, schemaState } from "~/db/schema-version.server";
import { auditLog } from "~/db/schema";
import { verifyPassword } from "~/services/passwords.server";
import { convertPrices, currencyRefusal, recordMissingCurrency } from "~/services/price-currency.server";
import { eq } from "drizzle-orm";
import { plainTables } from "../upgrades/fixture-db";

/**
 * Upgrades: a database made by each earlier week's main — with that commit's
 * own migrations and demo seed, and a row in every table the demo left empty
 * (tests/upgrades/make-fixture.ts) — is migrated to today's schema, then
 * checked row by row: no row lost, no value of a column that stays changed.
 * Prices keep the currency they were set in. A database migrated by a newer
 * version is refused, naming both versions and the way back.
 */

const FIXTURES = path.resolve("tests/upgrades/fixtures");
const fixtures = fs.readdirSync(FIXTURES).filter((name) => name.endsWith(".db.gz"));
const DEMO_PASSWORDS = {
  "admin@kallo.demo": "kallo-admin-demo",
  "provider@kallo.demo": "kallo-provider-demo",
  "viewer@kallo.demo": "kallo-viewer-demo",
};

type Rows = Map<string, Map<string, Record<string, unknown>>>;
/** The key columns the last snapshot used, by table. */
let usedKeys = new Map<string, string[]>();

/**
 * Every row of every plain table, by its primary key (rowid where it has none); search indexes are rebuilt by
 * design. `keysOf` gives a table's key columns as they were before the upgrade (a key that gained a column,
 * as movie_renditions' gained `codec`, still finds each earlier row by its earlier key).
 */
function snapshot(sqlite: Database.Database, keysOf: Map<string, string[]> = new Map()): Rows {
  const tables = plainTables(sqlite);
  const rows: Rows = new Map();
  for (const table of tables) {
    const keys =
      keysOf.get(table) ??
      (sqlite.prepare(`PRAGMA table_info("${table}")`).all() as { name: string; pk: number }[])
        .filter((column) => column.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((column) => column.name);
    usedKeys.set(table, keys);
    const byKey = new Map<string, Record<string, unknown>>();
    for (const row of sqlite.prepare(`SELECT rowid AS "__rowid", * FROM "${table}"`).all() as Record<
      string,
      unknown
    >[]) {
      const key = keys.length ? keys.map((name) => String(row[name])).join("|") : String(row.__rowid);
      delete row.__rowid;
      byKey.set(key, row);
    }
    rows.set(table, byKey);
  }
  return rows;
}

let opened: { db: DB; dir: string } | null = null;
afterEach(() => {
  opened?.db.$client.close();
  if (opened) fs.rmSync(opened.dir, { recursive: true, force: true });
  opened = null;
});

function openFixture(name: string): DB {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-upgrade-"));
  const file = path.join(dir, "data.db");
  fs.writeFileSync(file, zlib.gunzipSync(fs.readFileSync(path.join(FIXTURES, name))));
  const db = openDatabase(file);
  opened = { db, dir };
  return db;
}

describe("upgrading each earlier week's database to today's schema", () => {
  it("has fixtures from more than one week", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(3);
  });

  for (const name of fixtures) {
    it(`${name}: every row and value kept, sign-in works, prices keep their currency`, async () => {
      const db = openFixture(name);
      usedKeys = new Map();
      const before = snapshot(db.$client);
      const keysBefore = usedKeys;
      const currencies = db.$client.prepare("PRAGMA table_info(plans)").all() as { name: string }[];
      const planCurrency = currencies.some((column) => column.name === "currency")
        ? (db.$client.prepare("SELECT id, currency FROM plans").all() as { id: string; currency: string }[])
        : null;
      const state = schemaState(db.$client, migrationsFolder());
      expect(state.unknown).toBe(0);
      expect(state.pending.length).toBeGreaterThan(0);

      migrateDatabase(db);
      expect(schemaState(db.$client, migrationsFolder()).pending).toEqual([]);
      const after = snapshot(db.$client, keysBefore);

      let compared = 0;
      for (const [table, rows] of before) {
        const now = after.get(table);
        expect(now, `table ${table} is still there`).toBeDefined();
        expect(now!.size, `rows of ${table}`).toBe(rows.size);
        for (const [key, row] of rows) {
          const upgraded = now!.get(key);
          expect(upgraded, `${table} ${key} is still there`).toBeDefined();
          for (const [column, value] of Object.entries(row)) {
            if (!(column in upgraded!)) continue; // a column a migration dropped on purpose (0018: plans' old fields)
            expect(upgraded![column], `${table}.${column} of ${key}`).toEqual(value);
            compared += 1;
          }
        }
      }
      expect(compared).toBeGreaterThan(500);
      // Rows of every kind were there to be kept.
      for (const table of ["accounts", "sessions", "plans", "plan_periods", "passes", "payments", "redeem_codes"])
        expect(before.get(table)?.size ?? 0, `fixture rows in ${table}`).toBeGreaterThan(0);

      // Accounts come over as they were, with no number proven yet and no notices by SMS (0022 rebuilt the table).
      const upgradedAccounts = db.$client
        .prepare("SELECT email, verified_phone AS verifiedPhone, sms_notices AS smsNotices FROM accounts")
        .all() as { email: string | null; verifiedPhone: string | null; smsNotices: number }[];
      expect(upgradedAccounts.length).toBe(before.get("accounts")!.size);
      for (const account of upgradedAccounts)
        expect(account, String(account.email)).toMatchObject({ verifiedPhone: null, smsNotices: 0 });

      // Every account's history, lists and progress are its first profile's, which has the account's id (0023).
      const count = (query: string) => (db.$client.prepare(query).get() as { n: number }).n;
      expect(count("SELECT count(*) AS n FROM accounts WHERE id NOT IN (SELECT id FROM profiles)")).toBe(0);
      expect(count("SELECT count(*) AS n FROM profiles")).toBe(before.get("accounts")!.size);
      for (const table of ["watch_events", "saved_movies", "continue_watching_dismissals", "download_licences"])
        expect(count(`SELECT count(*) AS n FROM ${table} WHERE profile_id IS NOT account_id`), table).toBe(0);
      expect(count("SELECT count(*) AS n FROM watch_events"), "viewings in the fixture").toBeGreaterThan(0);

      // The demo's people still sign in with their passwords.
      for (const [email, password] of Object.entries(DEMO_PASSWORDS)) {
        const hash = db.$client.prepare("SELECT password_hash AS hash FROM accounts WHERE email = ?").get(email) as
          { hash: string } | undefined;
        expect(hash, email).toBeDefined();
        expect(await verifyPassword(password, hash!.hash), email).toBe(true);
      }

      // Prices: the currency they were set in, where the version kept one.
      const prices = db.$client.prepare("SELECT plan_id AS planId, currency FROM plan_periods").all() as {
        planId: string;
        currency: string | null;
      }[];
      const pricedBefore = [...(before.get("plan_periods")?.values() ?? [])].some((row) => row.currency);
      if (planCurrency) {
        for (const price of prices)
          expect(price.currency).toBe(planCurrency.find((plan) => plan.id === price.planId)!.currency);
      } else if (pricedBefore) {
        // Made after 0020: each price kept the currency it had (the row comparison above holds them).
        expect(prices.every((price) => price.currency !== null)).toBe(true);
        expect(recordMissingCurrency(db, "NGN")).toBe(0);
      } else {
        // Made after 0018 dropped it: prices have been charged in CURRENCY since; the start records that once.
        expect(prices.every((price) => price.currency === null)).toBe(true);
        expect(recordMissingCurrency(db, "NGN")).toBe(prices.length);
        expect(db.select().from(auditLog).where(eq(auditLog.action, "prices.currency_recorded")).all()).toHaveLength(1);
        expect(recordMissingCurrency(db, "NGN")).toBe(0);
      }
    });
  }

  it("last week's dollar prices are never read as naira: the start refuses until they are converted", () => {
    const db = openFixture(fixtures.find((name) => name.includes("e4bab75"))!);
    migrateDatabase(db);
    expect(recordMissingCurrency(db, "NGN")).toBe(0);
    const refusal = currencyRefusal(db, "NGN");
    expect(refusal).toContain("CURRENCY=NGN");
    expect(refusal).toContain("6 in USD");
    expect(refusal).toContain("npm run prices:convert -- --to NGN --rate");
    expect(currencyRefusal(db, "USD")).toBeNull();

    // $14.00 a month at 1,600 naira to the dollar: ₦22,400.00.
    const done = convertPrices(db, { to: "NGN", rate: 1600 });
    expect(done).toHaveLength(6);
    expect(done.find((price) => price.plan === "Basic" && price.period === "month")).toMatchObject({
      from: "USD",
      before: 1400,
      after: 2_240_000,
    });
    expect(currencyRefusal(db, "NGN")).toBeNull();
    const [entry] = db.select().from(auditLog).where(eq(auditLog.action, "prices.convert")).all();
    expect(entry.details).toMatchObject({ to: "NGN", rate: 1600, keptAmounts: false });
    expect((entry.details as { prices: unknown[] }).prices).toHaveLength(6);
  });

  it("today's build refuses a database a newer version has migrated, naming both versions and the way back", () => {
    const db = openFixture(fixtures.at(-1)!);
    migrateDatabase(db);
    recordVersion(db.$client, "9.9.0", migrationsFolder());
    expect(refusalToStart(schemaState(db.$client, migrationsFolder()), { version: "1.4.0" })).toBeNull();
    // A migration from the future, as a newer version's upgrade leaves it.
    const newest = Math.max(
      ...(db.$client.prepare("SELECT created_at FROM __drizzle_migrations").all() as { created_at: number }[]).map(
        (row) => Number(row.created_at),
      ),
    );
    db.$client
      .prepare("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', ?)")
      .run(newest + 86_400_000);
    db.$client.prepare("INSERT INTO kallo_versions (version, migration) VALUES ('1.5.0', '0021_future')").run();
    const refusal = refusalToStart(schemaState(db.$client, migrationsFolder()), { version: "1.4.0" });
    expect(refusal).toContain("Kallo 1.5.0 (migration 0021_future)");
    expect(refusal).toContain("Kallo 1.4.0 does not know");
    expect(refusal).toContain("npm run rollback");
  });
});
