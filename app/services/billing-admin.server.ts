import { and, count, desc, eq, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { DB } from "~/db/client.server";
import { accounts, passes, payments, plans, redeemCodes } from "~/db/schema";
import { formatVoucherCode } from "./vouchers.server";

/**
 * The administrator's four billing tables (payments, subscribers,
 * subscription status, redeem codes): each a page of rows read in the order
 * of an index, with a search over the columns people look things up by.
 * The CSV export reads the same queries page by page.
 */

export const BILLING_TABLES = ["payments", "subscribers", "status", "codes"] as const;
export type BillingTable = (typeof BILLING_TABLES)[number];

export function isBillingTable(value: unknown): value is BillingTable {
  return typeof value === "string" && (BILLING_TABLES as readonly string[]).includes(value);
}

export type TableQuery = { search?: string; page?: number; pageSize?: number; batchId?: string };

function likePattern(search: string): string {
  return `%${search.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
}

function matchesAny(search: string | undefined, columns: SQL[]): SQL | undefined {
  const text = search?.trim();
  if (!text) return undefined;
  const pattern = likePattern(text.slice(0, 100));
  return or(...columns.map((column) => sql`${column} LIKE ${pattern} ESCAPE '\\'`));
}

function paging(query: TableQuery) {
  const pageSize = Math.min(Math.max(query.pageSize ?? 10, 1), 500);
  const page = Math.max(query.page ?? 1, 1);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

/** How many rows a listing's query finds (its own select, joins and filter, counted before it is ordered and paged). */
function countOf(db: DB, listed: { getSQL: () => SQL }): number {
  return db.get<{ value: number }>(sql`SELECT count(*) AS value FROM (${listed.getSQL()})`)?.value ?? 0;
}

export type PassState = "active" | "upcoming" | "expired";

function passState(startsAt: Date, endsAt: Date, now: Date): PassState {
  if (endsAt.getTime() <= now.getTime()) return "expired";
  return startsAt.getTime() > now.getTime() ? "upcoming" : "active";
}

export type PaymentRow = {
  id: string;
  name: string;
  /** Null for an account made with a phone number. */
  email: string | null;
  phoneNumber: string;
  status: "pending" | "success" | "failed";
  date: Date;
  plan: string;
  reference: string;
  amountMinor: number;
  currency: string;
};

/** Payments, newest first (payments_created_idx): Name, Email, Phone, Payment Status, Payment Date, Plan. */
export function listPaymentRows(db: DB, query: TableQuery) {
  const { page, pageSize, offset } = paging(query);
  const where = matchesAny(query.search, [
    sql`${accounts.name}`,
    sql`${accounts.email}`,
    sql`${accounts.phoneNumber}`,
    sql`${payments.reference}`,
    sql`${plans.name}`,
    sql`${payments.status}`,
  ]);
  // Without a search the total is the table's own count (no joins to walk).
  const listed = db
    .select({
      id: payments.id,
      name: accounts.name,
      email: accounts.email,
      phoneNumber: accounts.phoneNumber,
      status: payments.status,
      createdAt: payments.createdAt,
      paidAt: payments.paidAt,
      plan: plans.name,
      reference: payments.reference,
      amountMinor: payments.amountMinor,
      currency: payments.currency,
    })
    .from(payments)
    .innerJoin(accounts, eq(accounts.id, payments.accountId))
    .innerJoin(plans, eq(plans.id, payments.planId))
    .where(where);
  const total = where ? countOf(db, listed) : (db.select({ value: count() }).from(payments).get()?.value ?? 0);
  const rows = listed
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(pageSize)
    .offset(offset)
    .all()
    .map((row): PaymentRow => ({ ...row, date: row.paidAt ?? row.createdAt }));
  return { rows, total, page, pageSize };
}

export type PassRow = {
  id: string;
  name: string;
  /** Null for an account made with a phone number. */
  email: string | null;
  startsAt: Date;
  endsAt: Date;
  plan: string;
  source: "payment" | "voucher" | "admin";
  paymentId: string;
  state: PassState;
};

const voucherCodes = alias(redeemCodes, "pass_codes");

/** Passes (subscriptions), newest start first (passes_starts_idx), with what paid for them. */
export function listPassRows(db: DB, query: TableQuery, now: Date = new Date()) {
  const { page, pageSize, offset } = paging(query);
  const compact = query.search?.trim().toUpperCase().replace(/[\s-]/g, "") ?? "";
  const text = matchesAny(query.search, [
    sql`${accounts.name}`,
    sql`${accounts.email}`,
    sql`${plans.name}`,
    sql`coalesce(${payments.reference}, '')`,
  ]);
  // Voucher codes are stored without the dashes they are printed with.
  const where =
    text && compact ? or(text, sql`coalesce(${voucherCodes.code}, '') LIKE ${likePattern(compact)} ESCAPE '\\'`) : text;
  const listed = db
    .select({
      id: passes.id,
      name: accounts.name,
      email: accounts.email,
      startsAt: passes.startsAt,
      endsAt: passes.endsAt,
      plan: plans.name,
      source: passes.source,
      reference: payments.reference,
      code: voucherCodes.code,
    })
    .from(passes)
    .innerJoin(accounts, eq(accounts.id, passes.accountId))
    .innerJoin(plans, eq(plans.id, passes.planId))
    .leftJoin(payments, eq(payments.id, passes.paymentId))
    .leftJoin(voucherCodes, eq(voucherCodes.id, passes.redeemCodeId))
    .where(where);
  const total = where ? countOf(db, listed) : (db.select({ value: count() }).from(passes).get()?.value ?? 0);
  const rows = listed
    .orderBy(desc(passes.startsAt), desc(passes.id))
    .limit(pageSize)
    .offset(offset)
    .all()
    .map((row): PassRow => ({
      id: row.id,
      name: row.name,
      email: row.email,
      startsAt: row.startsAt,
      endsAt: row.endsAt,
      plan: row.plan,
      source: row.source,
      // The payment's reference, or the voucher that paid for it.
      paymentId: row.reference ?? (row.code ? formatVoucherCode(row.code) : row.id),
      state: passState(row.startsAt, row.endsAt, now),
    }));
  return { rows, total, page, pageSize };
}

export type CodeRow = {
  id: string;
  code: string;
  batchId: string;
  expiresAt: Date;
  plan: string;
  periodDays: number;
  redeemedByEmail: string | null;
  redeemedAt: Date | null;
  state: "unused" | "used" | "expired";
};

const redeemers = alias(accounts, "redeemers");

/** Redeem codes, newest first (redeem_codes_created_idx, or one batch through redeem_codes_batch_idx). */
export function listCodeRows(db: DB, query: TableQuery, now: Date = new Date()) {
  const { page, pageSize, offset } = paging(query);
  const search = query.search?.trim();
  const compact = search ? search.toUpperCase().replace(/[\s-]/g, "") : "";
  const conditions: SQL[] = [];
  if (query.batchId) conditions.push(eq(redeemCodes.batchId, query.batchId));
  const text = matchesAny(search, [
    sql`${redeemCodes.batchId}`,
    sql`${plans.name}`,
    sql`coalesce(${redeemers.email}, '')`,
  ]);
  // Codes are stored without the dashes they are printed with.
  if (text && compact) conditions.push(or(text, sql`${redeemCodes.code} LIKE ${likePattern(compact)} ESCAPE '\\'`)!);
  else if (text) conditions.push(text);
  const where = conditions.length ? and(...conditions) : undefined;
  const listed = db
    .select({
      id: redeemCodes.id,
      code: redeemCodes.code,
      batchId: redeemCodes.batchId,
      expiresAt: redeemCodes.expiresAt,
      plan: plans.name,
      periodDays: redeemCodes.periodDays,
      redeemedByEmail: redeemers.email,
      redeemedAt: redeemCodes.redeemedAt,
    })
    .from(redeemCodes)
    .innerJoin(plans, eq(plans.id, redeemCodes.planId))
    .leftJoin(redeemers, eq(redeemers.id, redeemCodes.redeemedBy))
    .where(where);
  const total = countOf(db, listed);
  const rows = listed
    .orderBy(desc(redeemCodes.createdAt), desc(redeemCodes.id))
    .limit(pageSize)
    .offset(offset)
    .all()
    .map((row): CodeRow => ({
      ...row,
      code: formatVoucherCode(row.code),
      state: row.redeemedAt ? "used" : row.expiresAt.getTime() <= now.getTime() ? "expired" : "unused",
    }));
  return { rows, total, page, pageSize };
}
