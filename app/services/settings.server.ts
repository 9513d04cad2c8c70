import { eq } from "drizzle-orm";
import { z } from "zod";
import type { DB } from "~/db/client.server";
import { settings } from "~/db/schema";

/** Service-wide switches, stored in the database so an administrator can change them. */
const SETTINGS = {
  /** New titles from providers are published without waiting for an administrator. Off by default. */
  autoApproveMovies: z.boolean().default(false),
  /** The ECDSA P-256 key pair (JWK) that signs offline-download licences; made on first use. */
  licenceSigningKey: z
    .object({ privateJwk: z.record(z.string(), z.unknown()), publicJwk: z.record(z.string(), z.unknown()) })
    .nullable()
    .default(null),
} as const;

export type SettingKey = keyof typeof SETTINGS;
export type SettingValue<K extends SettingKey> = z.infer<(typeof SETTINGS)[K]>;

export function getSetting<K extends SettingKey>(db: DB, key: K): SettingValue<K> {
  const row = db.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).get();
  const parsed = SETTINGS[key].safeParse(row?.value);
  return (parsed.success ? parsed.data : SETTINGS[key].parse(undefined)) as SettingValue<K>;
}

export function setSetting<K extends SettingKey>(db: DB, key: K, value: SettingValue<K>): void {
  const checked = SETTINGS[key].parse(value);
  db.insert(settings)
    .values({ key, value: checked, updatedAt: new Date() })
    .onConflictDoUpdate({ target: settings.key, set: { value: checked, updatedAt: new Date() } })
    .run();
}
