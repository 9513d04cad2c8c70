/**
 * `npm run prices:convert -- --to NGN --rate 1600`: every plan price set in
 * another currency, times the rate (units of the new currency per unit of the
 * old), rounded to the minor unit, now in NGN. `--keep-amounts` keeps the
 * figures and records them in the new currency. The audit log keeps each
 * price before and after. Run it with the server stopped or serving (one
 * transaction); a server that refused to start for the currency starts after.
 */
import { openDatabase } from "../app/db/client.server";
import { convertPrices, parseCurrency } from "../app/services/price-currency.server";
import { getEnv } from "../app/utils/env.server";
import { CURRENCY_CODES, formatMoney } from "../app/utils/money";

const args = process.argv.slice(2);
const valueOf = (name: string) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const to = parseCurrency(valueOf("--to"));
const keepAmounts = args.includes("--keep-amounts");
const rate = Number(valueOf("--rate"));
if (!to || (!keepAmounts && !(rate > 0))) {
  console.error(
    `Usage: npm run prices:convert -- --to <${CURRENCY_CODES.join("|")}> (--rate <units of it per unit of the old currency> | --keep-amounts)`,
  );
  process.exit(2);
}
const db = openDatabase(getEnv().databasePath);
const done = convertPrices(db, { to, rate: keepAmounts ? undefined : rate, keepAmounts });
db.$client.close();
for (const price of done)
  console.log(
    `[prices] ${price.plan} (${price.period}): ${formatMoney(price.before, price.from, "en")} → ${formatMoney(price.after, to, "en")}`,
  );
console.log(`[prices] ${done.length} price${done.length === 1 ? "" : "s"} now in ${to} (audit log: prices.convert)`);
