import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { redirect } from "@remix-run/node";
import { Form, useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { requireUser } from "~/auth/guards.server";
import { SubmitButton } from "~/components/ui/form";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import {
  listNotifications,
  markNotificationsRead,
  openNotification,
  shownNotificationValues,
} from "~/services/notifications.server";
import { safeRedirectPath } from "~/utils/redirect";
import { dateFormatter } from "~/utils/dates";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["auth", "browse", "billing"] };

export const meta = metaTitleMeta;

/** The signed-in person's notifications (any role), newest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { t, language } = await getRequestT(request, "auth");
  const rows = listNotifications(getDb(), user.id, { children: user.profile.children }).map((row) => ({
    ...row,
    messageValues: shownNotificationValues(row.messageValues, language),
    link: row.link ? safeRedirectPath(row.link, "") || null : null,
    createdAt: row.createdAt.toISOString(),
    read: row.readAt !== null,
  }));
  return { metaTitle: t("notifications.metaTitle"), language, notifications: rows };
}

/**
 * Marking read is always a POST (no GET changes anything): `intent=open`
 * marks one read and goes to its link; otherwise one (`id`) or all are marked
 * read. With JavaScript the page posts "all read" by itself once the list is
 * shown; without it the "Mark all as read" button does the same.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const id = form.get("id");
  const notificationId = typeof id === "string" && id ? id : undefined;
  if (form.get("intent") === "open" && notificationId) {
    const link = openNotification(getDb(), user.id, notificationId);
    return redirect(link ? safeRedirectPath(link, "/notifications") : "/notifications", { status: 303 });
  }
  const marked = markNotificationsRead(getDb(), user.id, notificationId);
  // The page's own background post (JavaScript) stays on the page; the loaders reload and the bell clears.
  if (form.get("intent") === "seen") return { marked };
  return redirect("/notifications", { status: 303 });
}

export default function Notifications() {
  const { t } = useTranslation("auth");
  const { t: tAny } = useTranslation();
  const { notifications, language } = useLoaderData<typeof loader>();
  const unread = notifications.filter((n) => !n.read).length;
  // What was new when the page opened stays highlighted after it is marked read.
  const [seenAsNew] = useState(() => new Set(notifications.filter((n) => !n.read).map((n) => n.id)));
  const markSeen = useFetcher();
  useEffect(() => {
    if (unread > 0 && markSeen.state === "idle" && markSeen.data === undefined) {
      markSeen.submit({ intent: "seen" }, { method: "post", action: "/notifications" });
    }
  }, [unread, markSeen]);
  const format = dateFormatter(language, "dateTime");
  return (
    <section className="mx-auto w-full max-w-2xl px-4 py-12">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">{t("notifications.title")}</h1>
        {unread > 0 ? (
          <Form method="post">
            <SubmitButton
              pendingText={t("notifications.markAllRead")}
              className="rounded border border-white/20 px-3 py-1.5 text-sm hover:bg-white/5"
            >
              {t("notifications.markAllRead")}
            </SubmitButton>
          </Form>
        ) : null}
      </div>
      {notifications.length === 0 ? (
        <p className="mt-8 rounded-lg border border-white/10 bg-ink-900/60 p-6 text-slate-300">
          {t("notifications.empty")}
        </p>
      ) : (
        <ul className="mt-6 grid gap-3">
          {notifications.map((notification) => (
            <li
              key={notification.id}
              data-notification-id={notification.id}
              data-read={notification.read ? "true" : "false"}
              className={`flex items-start justify-between gap-4 rounded-lg border p-4 ${notification.read && !seenAsNew.has(notification.id) ? "border-white/5 bg-ink-900/40" : "border-brand-500/40 bg-ink-900"}`}
            >
              <div>
                <p className={notification.read ? "text-slate-300" : "font-semibold text-slate-50"}>
                  {tAny(notification.messageKey, notification.messageValues)}
                </p>
                <p className="mt-1 text-xs text-slate-400">
                  <time dateTime={notification.createdAt}>{format.format(new Date(notification.createdAt))}</time>
                </p>
                {notification.link ? (
                  <Form method="post" className="mt-2">
                    <input type="hidden" name="id" value={notification.id} />
                    <button type="submit" name="intent" value="open" className="text-sm text-brand-300 hover:underline">
                      {t("notifications.open")}
                    </button>
                  </Form>
                ) : null}
              </div>
              {notification.read ? null : (
                <Form method="post">
                  <input type="hidden" name="id" value={notification.id} />
                  <button
                    type="submit"
                    className="rounded border border-white/20 px-3 py-1.5 text-xs whitespace-nowrap hover:bg-white/5"
                  >
                    {t("notifications.markRead")}
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
