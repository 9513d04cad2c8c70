/**
 * Billing at scale, through the service functions the pages use: the four
 * administrator tables (first page, a deep page, a search) and a full CSV
 * export over 20,000 rows each, a batch of 500 vouchers, redeeming, and
 * taking playback leases. Run with `npm run bench:billing`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateDatabase, openDatabase } from "../app/db/client.server";
import { accounts, categories, movies, passes, payments, planPeriods, plans, redeemCodes } from "../app/db/schema";
import { listCodeRows, listPassRows, listPaymentRows } from "../app/services/billing-admin.server";
import { billingCsvLines } from "../app/services/billing-export.server";
import { takePlaybackLease } from "../app/services/playback.server";
import { generateVoucherBatch, redeemVoucher } from "../app/services/vouchers.server";
import { createId } from "../app/utils/ids.server";
import type { TFunction } from "~/i18n/translator";

const ROWS = Number(process.env.BENCH_BILLING_ROWS ?? 20_000);
const root = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-bench-billing-"));
const db = openDatabase(path.join(root, "data.db"));
migrateDatabase(db);

db.insert(plans).values({ id: "planbasic", code: "BASIC", name: "Basic", premium: true, screens: 1 }).run();
db.insert(planPeriods).values({ planId: "planbasic", period: "week", days: 7, priceMinor: 400 }).run();
db.insert(categories).values({ id: "cat", name: "Drama", slug: "drama" }).run();
db.insert(accounts)
  .values({ id: "provider", name: "P", email: "p@bench.test", phoneNumber: "1", passwordHash: "x", role: "provider" })
  .run();
db.insert(movies)
  .values({
    id: "benchmovie01",
    name: "Film",
    categoryId: "cat",
    providerId: "provider",
    status: "ready",
    approved: true,
  })
  .run();

const seedStart = performance.now();
db.transaction((tx) => {
  const now = Date.now();
  for (let i = 0; i < ROWS; i++) {
    const accountId = `viewer${i}`;
    tx.insert(accounts)
      .values({
        id: accountId,
        name: `Viewer ${i}`,
        email: `viewer${i}@bench.test`,
        phoneNumber: `0803${String(i).padStart(7, "0")}`,
        passwordHash: "x",
      })
      .run();
    const paymentId = createId();
    const at = new Date(now - i * 60_000);
    tx.insert(payments)
      .values({
        id: paymentId,
        accountId,
        planId: "planbasic",
        periodDays: 7,
        amountMinor: 400,
        currency: "USD",
        reference: `KAL-${createId(20)}`,
        status: "success",
        paidAt: at,
        createdAt: at,
      })
      .run();
    tx.insert(passes)
      .values({
        id: createId(),
        accountId,
        planId: "planbasic",
        startsAt: at,
        endsAt: new Date(at.getTime() + 7 * 86_400_000),
        source: "payment",
        paymentId,
        createdAt: at,
      })
      .run();
    tx.insert(redeemCodes)
      .values({
        id: createId(),
        code: createId(16).toUpperCase(),
        planId: "planbasic",
        periodDays: 7,
        batchId: `batch${i % 40}`,
        expiresAt: new Date(now + 86_400_000),
        createdAt: at,
      })
      .run();
  }
});
console.log(`seeded ${ROWS} payments, passes and codes in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

function time(label: string, runs: number, work: () => unknown) {
  work();
  const start = performance.now();
  for (let i = 0; i < runs; i++) work();
  console.log(`${label.padEnd(44)} ${((performance.now() - start) / runs).toFixed(2)} ms`);
}

const deep = Math.floor(ROWS / 10 / 2);
time("payments: first page of 10", 50, () => listPaymentRows(db, { page: 1, pageSize: 10 }));
time(`payments: page ${deep} of 10`, 50, () => listPaymentRows(db, { page: deep, pageSize: 10 }));
time("payments: search by email", 20, () => listPaymentRows(db, { search: "viewer1234@" }));
time("subscribers: first page of 10", 50, () => listPassRows(db, { page: 1, pageSize: 10 }));
time("subscription status: search by reference", 20, () => listPassRows(db, { search: "KAL-" }));
time("redeem codes: first page of 10", 50, () => listCodeRows(db, { page: 1, pageSize: 10 }));
time("redeem codes: one batch", 50, () => listCodeRows(db, { batchId: "batch7", pageSize: 10 }));

const t = ((key: string) => key) as unknown as TFunction;
const exportStart = performance.now();
let bytes = 0;
for (const chunk of billingCsvLines(db, "codes", {}, t)) bytes += Buffer.byteLength(chunk);
console.log(
  `${`CSV export of ${ROWS} redeem codes`.padEnd(44)} ${(performance.now() - exportStart).toFixed(0)} ms, ${(bytes / 1024 / 1024).toFixed(1)} MiB`,
);

const batchStart = performance.now();
const made = generateVoucherBatch(
  db,
  {
    planId: "planbasic",
    period: "week",
    count: "500",
    expiresOn: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
  },
  { actorId: "provider" },
);
console.log(`${"a batch of 500 vouchers".padEnd(44)} ${(performance.now() - batchStart).toFixed(0)} ms`);
if (!made.ok) throw new Error("batch failed");
let next = 0;
time("redeem a voucher (one transaction)", 200, () =>
  redeemVoucher(db, { accountId: `viewer${next}`, code: made.codes[next++ % made.codes.length] }),
);
time("take or renew a playback lease", 1000, () =>
  takePlaybackLease(db, { account: { id: "viewer1", role: "viewer" }, deviceId: "bench", movieId: "benchmovie01" }),
);

db.$client.close();
fs.rmSync(root, { recursive: true, force: true });
