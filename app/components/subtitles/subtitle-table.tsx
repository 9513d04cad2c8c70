import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { dateFormatter } from "~/utils/dates";

export type SubtitleRow = { language: string; label: string; sizeBytes: number; updatedAt: string; url: string };

/**
 * A title's subtitles, one row per language, each with a link to its file
 * and a Delete button (a plain POST to `formAction` with `intent=delete` and
 * `language`), for the provider's studio page and the administrator's.
 */
export function SubtitleTable({
  rows,
  formAction,
  canOpen,
}: {
  rows: readonly SubtitleRow[];
  formAction: string;
  /** Whether the file link may be followed (the title is ready). */
  canOpen: boolean;
}) {
  const { t, i18n } = useTranslation("subtitles");
  const navigation = useNavigation();
  const dateFormat = dateFormatter(i18n.language, "dateTime");
  if (rows.length === 0)
    return (
      <p className="mt-4 rounded-lg border border-white/10 bg-ink-900/60 p-4 text-slate-300">{t("studio.none")}</p>
    );
  const deleting = (language: string) =>
    navigation.state !== "idle" &&
    navigation.formData?.get("intent") === "delete" &&
    navigation.formData?.get("language") === language;
  return (
    <div className="mt-4 overflow-x-auto rounded-lg border border-white/10">
      <table className="w-full min-w-[560px] text-left text-sm" aria-label={t("studio.listLabel")}>
        <thead className="bg-ink-800 text-slate-300">
          <tr>
            <th scope="col" className="px-4 py-3">
              {t("studio.columns.language")}
            </th>
            <th scope="col" className="px-4 py-3">
              {t("studio.columns.label")}
            </th>
            <th scope="col" className="px-4 py-3 text-right">
              {t("studio.columns.size")}
            </th>
            <th scope="col" className="px-4 py-3">
              {t("studio.columns.updated")}
            </th>
            <th scope="col" className="px-4 py-3">
              {t("studio.columns.actions")}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-white/5">
          {rows.map((row) => (
            <tr key={row.language} data-subtitle-language={row.language}>
              <td className="px-4 py-3 font-mono">{row.language}</td>
              <td className="px-4 py-3" lang={row.language}>
                {row.label}
              </td>
              <td className="px-4 py-3 text-right tabular-nums">
                {t("studio.sizeKb", { kb: (row.sizeBytes / 1024).toFixed(1) })}
              </td>
              <td className="px-4 py-3 text-slate-300">
                <time dateTime={row.updatedAt}>{dateFormat.format(new Date(row.updatedAt))}</time>
              </td>
              <td className="px-4 py-3">
                <div className="flex flex-wrap items-center gap-3">
                  {canOpen ? (
                    <a
                      href={row.url}
                      className="text-brand-300 hover:underline"
                      aria-label={t("studio.viewNamed", { label: row.label })}
                    >
                      {t("studio.view")}
                    </a>
                  ) : null}
                  <Form method="post" action={formAction}>
                    <input type="hidden" name="language" value={row.language} />
                    <button
                      type="submit"
                      name="intent"
                      value="delete"
                      aria-label={t("studio.deleteNamed", { label: row.label })}
                      aria-disabled={deleting(row.language) || undefined}
                      className="text-red-300 hover:underline aria-disabled:opacity-60"
                    >
                      {deleting(row.language) ? t("studio.deleting") : t("studio.delete")}
                    </button>
                  </Form>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
