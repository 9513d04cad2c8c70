import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { requireAdmin } from "~/auth/guards.server";
import { SubtitleTable } from "~/components/subtitles/subtitle-table";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { deleteSubtitle, listSubtitles, titleForSubtitles } from "~/services/subtitles.server";
import { clientAddress } from "~/utils/client.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["subtitles"] };

export const meta = metaTitleMeta;

function movieIdOf(request: Request): string {
  return (new URL(request.url).searchParams.get("id") ?? "").trim();
}

/** /admin/subtitles?id=<movieId> — any title's subtitles, which an administrator may delete (only the provider adds them). */
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const title = titleForSubtitles(getDb(), movieIdOf(request), admin, "delete");
  if (typeof title === "string") throw data(null, { status: 404 });
  const { t } = await getRequestT(request, "subtitles");
  return {
    metaTitle: t("studio.metaTitle", { name: title.name }),
    title,
    rows: listSubtitles(getDb(), title.id).map((row) => ({ ...row, updatedAt: row.updatedAt.toISOString() })),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const movieId = movieIdOf(request);
  const form = await readForm(request);
  if (form.get("intent") !== "delete") return data({ formError: "subtitles:errors.unknownAction" }, { status: 400 });
  const outcome = deleteSubtitle(getDb(), {
    movieId,
    language: String(form.get("language") ?? ""),
    actor: admin,
    ipAddress: clientAddress(request),
  });
  if (outcome === "forbidden") throw data(null, { status: 403 });
  return redirectWithToast(
    `/admin/subtitles?${new URLSearchParams({ id: movieId })}`,
    outcome === "deleted"
      ? { type: "success", key: "subtitles:studio.deleted" }
      : { type: "error", key: "subtitles:studio.missing" },
    { status: 303 },
  );
}

export default function AdminSubtitles() {
  const { t } = useTranslation("subtitles");
  const { title, rows } = useLoaderData<typeof loader>();
  return (
    <section className="max-w-3xl">
      <Link to="/admin/movies" className="text-sm text-brand-300 hover:underline">
        {t("studio.adminBack")}
      </Link>
      <h1 className="mt-2 text-3xl font-bold">{t("studio.heading", { name: title.name })}</h1>
      <p className="mt-2 text-slate-300">{t("studio.adminIntro")}</p>
      <SubtitleTable
        rows={rows}
        formAction={`/admin/subtitles?${new URLSearchParams({ id: title.id })}`}
        canOpen={title.ready}
      />
    </section>
  );
}
