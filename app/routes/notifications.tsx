import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/auth/guards.server";
import { SubmitButton } from "~/components/ui/form";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { listNotifications, markNotificationsRead } from "~/services/notifications.server";
import { safeRedirectPath } from "~/utils/redirect";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.metaTitle ?? "Kallo" }];

/** The signed-in person's notifications (any role), newest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { t, language } = await getRequestT(request, "auth");
  const rows = listNotifications(getDb(), user.id).map((row) => ({
    ...row,
    link: row.link ? safeRedirectPath(row.link, "") || null : null,
    createdAt: row.createdAt.toISOString(),
    read: row.readAt !== null,
  }));
  return { metaTitle: t("notifications.metaTitle"), language, notifications: rows };
}

/** Marking read is a POST: one notification (`id`) or all of them. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const id = form.get("id");
  markNotificationsRead(getDb(), user.id, typeof id === "string" && id ? id : undefined);
  return redirect("/notifications", { status: 303 });
}

export default function Notifications() {
  const { t } = useTranslation("auth");
  const { t: tAny } = useTranslation();
  const { notifications, language } = useLoaderData<typeof loader>();
  const unread = notifications.filter((n) => !n.read).length;
  const format = new Intl.DateTimeFormat(language === "ha" ? "ha-NG" : "en-GB", { dateStyle: "medium", timeStyle: "short" });
  return (
    <section className="mx-auto w-full max-w-2xl px-4 py-12">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">{t("notifications.title")}</h1>
        {unread > 0 ? (
          <Form method="post">
            <SubmitButton pendingText={t("notifications.markAllRead")} className="rounded border border-white/20 px-3 py-1.5 text-sm hover:bg-white/5">
              {t("notifications.markAllRead")}
            </SubmitButton>
          </Form>
        ) : null}
      </div>
      {notifications.length === 0 ? (
        <p className="mt-8 rounded-lg border border-white/10 bg-ink-900/60 p-6 text-slate-300">{t("notifications.empty")}</p>
      ) : (
        <ul className="mt-6 grid gap-3">
          {notifications.map((notification) => (
            <li
              key={notification.id}
              className={`flex items-start justify-between gap-4 rounded-lg border p-4 ${notification.read ? "border-white/5 bg-ink-900/40" : "border-brand-500/40 bg-ink-900"}`}
            >
              <div>
                <p className={notification.read ? "text-slate-300" : "font-semibold text-slate-50"}>{tAny(notification.messageKey, notification.messageValues)}</p>
                <p className="mt-1 text-xs text-slate-400">
                  <time dateTime={notification.createdAt}>{format.format(new Date(notification.createdAt))}</time>
                </p>
                {notification.link ? (
                  <Link to={notification.link} className="mt-2 inline-block text-sm text-brand-300 hover:underline">
                    {t("notifications.open")}
                  </Link>
                ) : null}
              </div>
              {notification.read ? null : (
                <Form method="post">
                  <input type="hidden" name="id" value={notification.id} />
                  <button type="submit" className="whitespace-nowrap rounded border border-white/20 px-3 py-1.5 text-xs hover:bg-white/5">
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
