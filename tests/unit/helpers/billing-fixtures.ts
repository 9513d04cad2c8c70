import { insertTitle } from "./test-db";
import { accounts, categories, planPeriods, plans } from "~/db/schema";
import type { DB } from "~/db/client.server";

/** FREE, BASIC (1 screen) and PRO (2 screens) with day/week/month passes, a viewer or two, a provider and two titles. */
export function seedBilling(db: DB) {
  db.insert(plans)
    .values([
      { id: "planfree", code: "FREE", name: "Free", screens: 1, maxRung: 1080, premium: false, sortOrder: 0 },
      { id: "planbasic", code: "BASIC", name: "Basic", screens: 1, maxRung: 1080, premium: true, sortOrder: 1 },
      { id: "planpro", code: "PRO", name: "Pro", screens: 2, maxRung: 1080, premium: true, sortOrder: 2 },
    ])
    .run();
  db.insert(planPeriods)
    .values([
      { planId: "planbasic", period: "day", days: 1, priceMinor: 100 },
      { planId: "planbasic", period: "week", days: 7, priceMinor: 400 },
      { planId: "planbasic", period: "month", days: 30, priceMinor: 1400 },
      { planId: "planpro", period: "week", days: 7, priceMinor: 900 },
      { planId: "planpro", period: "month", days: 30, priceMinor: 3000 },
    ])
    .run();
  const account = (id: string, role: "viewer" | "provider" | "admin", name = id) =>
    db
      .insert(accounts)
      .values({ id, name, email: `${id}@example.com`, phoneNumber: "0803 000 0000", passwordHash: "x", role })
      .run();
  account("viewer1", "viewer", "Aisha Bello");
  account("viewer2", "viewer", "=cmd|' /C calc'!A0");
  account("provider1", "provider");
  account("provider2", "provider");
  account("admin1", "admin");
  db.insert(categories).values({ id: "cat1", name: "Drama", slug: "drama" }).run();
  addBillingFilm(db, "freemovie01", "Free film", "free");
  addBillingFilm(db, "premiummovie1", "Premium film", "premium");
  return {
    viewer: { id: "viewer1", role: "viewer" as const },
    other: { id: "viewer2", role: "viewer" as const },
    provider: { id: "provider1", role: "provider" as const },
    otherProvider: { id: "provider2", role: "provider" as const },
    admin: { id: "admin1", role: "admin" as const },
  };
}

export const DAY = 24 * 60 * 60 * 1000;

/** A ready, published 720p film of provider1 in cat1 (what seedBilling makes). */
export function addBillingFilm(db: DB, id: string, name: string, access: "free" | "premium"): void {
  insertTitle(db, id, { categoryId: "cat1", providerId: "provider1", access, height: 720 }, { name });
}
