import { eq } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { accounts, auditLog } from "~/db/schema";
import { createId } from "~/utils/ids.server";
import { generatePassword, hashPassword } from "./passwords.server";

export type BootstrapResult = { created: false } | { created: true; email: string; oneTimePassword?: string };

/**
 * The first start of a new installation must leave a way in. If ADMIN_EMAIL and
 * ADMIN_PASSWORD are set, that administrator is created when missing. If no
 * administrator exists at all and none is configured, one is created with a
 * random password that is printed once.
 */
export async function ensureAdministrator(
  db: DB,
  options: { email?: string; password?: string; defaultEmail?: string },
): Promise<BootstrapResult> {
  if (options.email && options.password) {
    const email = options.email.toLowerCase();
    const existing = db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email)).get();
    if (existing) return { created: false };
    await insertAdministrator(db, email, options.password);
    return { created: true, email };
  }
  const anyAdmin = db.select({ id: accounts.id }).from(accounts).where(eq(accounts.role, "admin")).limit(1).get();
  if (anyAdmin) return { created: false };
  const email = (options.defaultEmail ?? "admin@kallo.local").toLowerCase();
  const taken = db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email)).get();
  if (taken) return { created: false };
  const oneTimePassword = generatePassword();
  await insertAdministrator(db, email, oneTimePassword);
  return { created: true, email, oneTimePassword };
}

async function insertAdministrator(db: DB, email: string, password: string) {
  const passwordHash = await hashPassword(password);
  db.transaction((tx) => {
    const id = createId();
    tx.insert(accounts)
      .values({ id, name: "Administrator", email, phoneNumber: "-", passwordHash, role: "admin" })
      .run();
    tx.insert(auditLog)
      .values({ id: createId(), actorId: null, action: "account.bootstrap_admin", targetType: "account", targetId: id })
      .run();
  });
}
