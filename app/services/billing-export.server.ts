import type { TFunction } from "~/i18n/translator";
import type { DB } from "~/db/client.server";
import { csvLine } from "~/utils/csv";
import { csvAmount } from "~/utils/money";
import { listCodeRows, listPassRows, listPaymentRows, type BillingTable } from "./billing-admin.server";
import { periodOfDays } from "./passes.server";

/** Rows read per query while exporting: the export never holds a whole table. */
const EXPORT_PAGE = 500;
/** A bound on one export, so a runaway request cannot tie the process up. */
const EXPORT_MAX_ROWS = 100_000;

const iso = (date: Date | null) => (date ? date.toISOString() : "");

/**
 * A billing table as CSV lines (header first, with a byte-order mark so
 * spreadsheets read UTF-8), produced a page at a time with the same
 * queries the page uses.
 */
export function* billingCsvLines(
  db: DB,
  table: BillingTable,
  query: { search?: string; batchId?: string },
  t: TFunction,
): Generator<string> {
  const c = (key: string) => t(`admin.columns.${key}`);
  const now = new Date();
  const headers: Record<BillingTable, string[]> = {
    payments: [
      c("name"),
      c("email"),
      c("phone"),
      c("paymentStatus"),
      c("paymentDate"),
      c("plan"),
      c("amount"),
      "Currency",
      "Reference",
    ],
    subscribers: [c("name"), c("email"), c("subscribeDate"), c("expireDate"), c("plan")],
    status: [c("paymentId"), c("email"), c("subscribeStatus"), c("expireDate"), c("plan")],
    codes: [c("paymentId"), c("redeemCode"), c("expireDate"), c("plan"), c("period"), c("redeemed"), c("batch")],
  };
  yield `\uFEFF${csvLine(headers[table])}`;
  for (let page = 1; (page - 1) * EXPORT_PAGE < EXPORT_MAX_ROWS; page++) {
    const options = { ...query, page, pageSize: EXPORT_PAGE };
    let lines: string[];
    if (table === "payments") {
      lines = listPaymentRows(db, options).rows.map((row) =>
        csvLine([
          row.name,
          row.email,
          row.phoneNumber,
          t(`status.${row.status}`),
          iso(row.date),
          row.plan,
          csvAmount(row.amountMinor, row.currency),
          row.currency,
          row.reference,
        ]),
      );
    } else if (table === "subscribers") {
      lines = listPassRows(db, options, now).rows.map((row) =>
        csvLine([row.name, row.email, iso(row.startsAt), iso(row.endsAt), row.plan]),
      );
    } else if (table === "status") {
      lines = listPassRows(db, options, now).rows.map((row) =>
        csvLine([row.paymentId, row.email, t(`admin.passState.${row.state}`), iso(row.endsAt), row.plan]),
      );
    } else {
      lines = listCodeRows(db, options, now).rows.map((row) => {
        const period = periodOfDays(row.periodDays);
        return csvLine([
          row.id,
          row.code,
          iso(row.expiresAt),
          row.plan,
          period ? t(`periods.${period}`) : t("periodOfDays", { count: row.periodDays }),
          row.state === "used"
            ? t("admin.codeState.used", { email: row.redeemedByEmail ?? "" })
            : t(`admin.codeState.${row.state}`),
          row.batchId,
        ]);
      });
    }
    if (lines.length === 0) return;
    yield lines.join("");
    if (lines.length < EXPORT_PAGE) return;
  }
}
