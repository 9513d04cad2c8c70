/**
 * The demo's audience: named viewers with passes and payments, and their
 * viewings of each title, so the charts, Trending and Continue watching show
 * real rows from the first start. Fixed per title and viewer, so a second seed
 * makes the same numbers.
 */
import { inArray } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { accounts, passes, payments, planPeriods } from "~/db/schema";
import { getEnv } from "~/utils/env.server";
/** What a seed added, files or rows, counted as it goes (the seed's summary). */
export type Created = { movies: number; categories: number; plans: number; accounts: number; files: number };

export const HOUR_MS = 60 * 60 * 1000;

/**
 * Where the demo audience's viewing `index` of a title stops, as a share of
 * the film: most watch to the end, some leave early, fewer towards the end
 * (a retention curve that falls as real ones do). Fixed per title and
 * viewing, so a second seed makes the same numbers.
 */
export function stopFraction(titleId: string, index: number): number {
  let hash = 2166136261;
  for (const char of `${titleId}:${index}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  const draw = ((hash >>> 0) % 1000) / 1000;
  if (draw < 0.55) return 1;
  // The rest stop anywhere, more of them early on.
  return Math.round(((draw - 0.55) / 0.45) ** 2 * 100) / 100;
}

const DEMO_AUDIENCE_NAMES = [
  "Aisha Garba",
  "Musa Danladi",
  "Hadiza Lawal",
  "Ibrahim Sani",
  "Fatima Usman",
  "Abubakar Musa",
  "Zainab Idris",
  "Yusuf Aliyu",
  "Maryam Bello",
  "Umar Shehu",
  "Hauwa Adamu",
  "Sadiq Haruna",
  "Rukayya Salisu",
  "Nasiru Kabir",
  "Khadija Tijjani",
  "Bashir Yakubu",
  "Amina Sule",
  "Kabiru Dauda",
  "Safiya Ahmad",
  "Habibu Nuhu",
  "Rahma Isa",
  "Auwal Bala",
  "Halima Jibril",
  "Tanimu Abdu",
  "Bilkisu Hamza",
  "Lawan Mohammed",
  "Asma'u Ibrahim",
  "Salisu Yahaya",
  "Jamila Sadiq",
  "Aminu Garba",
  "Hafsat Umar",
  "Ismail Rabiu",
  "Saratu Bashir",
  "Nura Ado",
  "Balaraba Tukur",
  "Shamsu Lawan",
  "Ummi Saleh",
  "Dahiru Sabo",
  "Zuwaira Ali",
  "Mustapha Ahmed",
];

/**
 * The demo audience: viewers who signed up over the last three months and
 * whose viewings make up the titles' views. They cannot sign in (no password
 * is theirs); the administrator sees them in the user list and the sign-ups
 * chart. Fixed ids, inserted when missing.
 */
export async function ensureAudience(db: DB, created: Created): Promise<string[]> {
  const ids = DEMO_AUDIENCE_NAMES.map((_, index) => `demoaudience${String(index + 1).padStart(2, "0")}`);
  const existing = new Set(
    db
      .select({ id: accounts.id })
      .from(accounts)
      .where(inArray(accounts.id, ids))
      .all()
      .map((row) => row.id),
  );
  const now = Date.now();
  db.transaction((tx) => {
    DEMO_AUDIENCE_NAMES.forEach((name, index) => {
      const id = ids[index]!;
      if (existing.has(id)) return;
      const email = `${name.toLowerCase().replace(/[^a-z]+/g, ".")}@audience.kallo.demo`;
      const result = tx
        .insert(accounts)
        .values({
          id,
          name,
          email,
          phoneNumber: `+234 806 200 ${String(index + 1).padStart(4, "0")}`,
          // Not a password hash: nobody can sign in as a member of the audience.
          passwordHash: "demo-audience-no-sign-in",
          role: "viewer",
          // Sign-ups over the last 90 days, the first ones first.
          createdAt: new Date(now - (90 - index * 2.2) * 24 * HOUR_MS),
        })
        .onConflictDoNothing()
        .run();
      created.accounts += result.changes;
    });
  });
  return ids;
}

/**
 * Passes some of the audience bought (by card, through the demo's payment
 * rows), priced from the plans' pass lengths as they stand in the database,
 * so the administrator's revenue, passes and the providers' earnings have
 * numbers that agree. Nothing when no paid plan has a pass length on sale.
 */
export function ensureAudiencePasses(db: DB, audience: readonly string[]): void {
  const offers = db
    .select({
      planId: planPeriods.planId,
      days: planPeriods.days,
      priceMinor: planPeriods.priceMinor,
    })
    .from(planPeriods)
    .where(inArray(planPeriods.planId, ["planbasic", "planpro"]))
    .orderBy(planPeriods.planId, planPeriods.days)
    .all();
  if (offers.length === 0) return;
  const now = Date.now();
  db.transaction((tx) => {
    audience.forEach((accountId, index) => {
      // Two in five of the audience bought passes, one after another.
      if (index % 5 > 1) return;
      let startsAt = now - (58 - index) * 24 * HOUR_MS;
      for (let purchase = 0; purchase < 1 + (index % 3); purchase++) {
        const offer = offers[(index + purchase) % offers.length]!;
        const id = `demopay${String(index + 1).padStart(2, "0")}${purchase}`;
        const endsAt = startsAt + offer.days * 24 * HOUR_MS;
        if (startsAt > now) break;
        const paid = tx
          .insert(payments)
          .values({
            id,
            accountId,
            planId: offer.planId,
            periodDays: offer.days,
            amountMinor: offer.priceMinor,
            currency: getEnv().currency,
            gateway: "paystack",
            reference: `demo-${id}`,
            status: "success",
            paidAt: new Date(startsAt),
            createdAt: new Date(startsAt - 60_000),
          })
          .onConflictDoNothing()
          .run();
        if (paid.changes > 0) {
          tx.insert(passes)
            .values({
              id: `demopass${id.slice("demopay".length)}`,
              accountId,
              planId: offer.planId,
              startsAt: new Date(startsAt),
              endsAt: new Date(endsAt),
              source: "payment",
              paymentId: id,
            })
            .onConflictDoNothing()
            .run();
        }
        startsAt = endsAt + (index % 4) * 24 * HOUR_MS;
      }
    });
  });
}
