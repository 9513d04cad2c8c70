import { and, count, desc, eq, isNull } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { notifications } from "~/db/schema";

/** A person's notifications (new titles and the like), newest first. */
export function listNotifications(db: DB, accountId: string, limit = 50) {
  return db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      messageKey: notifications.messageKey,
      messageValues: notifications.messageValues,
      link: notifications.link,
      readAt: notifications.readAt,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .where(eq(notifications.accountId, accountId))
    .orderBy(desc(notifications.createdAt))
    .limit(limit)
    .all();
}

export function countUnreadNotifications(db: DB, accountId: string): number {
  return (
    db
      .select({ value: count() })
      .from(notifications)
      .where(and(eq(notifications.accountId, accountId), isNull(notifications.readAt)))
      .get()?.value ?? 0
  );
}

/** Mark one (only the owner's) or all of a person's notifications read. */
export function markNotificationsRead(db: DB, accountId: string, notificationId?: string): number {
  const owner = and(eq(notifications.accountId, accountId), isNull(notifications.readAt));
  return db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(notificationId ? and(owner, eq(notifications.id, notificationId)) : owner)
    .run().changes;
}
