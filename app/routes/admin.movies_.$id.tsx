import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { requireAdmin } from "~/auth/guards.server";
import { TitleFacts } from "~/components/studio/title-facts";
import { TitleDetailsForm } from "~/components/studio/title-details-form";
import { useErrorToasts } from "~/components/ui/form";
import { Link } from "~/components/ui/link";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { lingerOn } from "~/utils/request-body.server";
import { loadTitleEditPage, titleEditAction } from "~/routes-support/title-edit-page.server";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["studio", "admin"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.metaTitle ?? "Kallo" }];

/**
 * /admin/movies/<id>: an administrator edits any title's details and poster
 * (the same rule and service as its provider: decision 051). Replacing the
 * film is its provider's; this page shows where a replacement stands.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const page = await loadTitleEditPage(getDb(), params.id ?? "", admin);
  const { t } = await getRequestT(request, "studio");
  return { metaTitle: t("edit.metaTitle", { name: page.title.displayName }), ...page };
}

export async function action({ request, params }: ActionFunctionArgs) {
  let admin;
  try {
    admin = await requireAdmin(request);
  } catch (refusal) {
    // The poster of a refused request is read and dropped behind the answer.
    lingerOn(request);
    throw refusal;
  }
  const movieId = params.id ?? "";
  return titleEditAction(request, getDb(), movieId, admin, `/admin/movies/${encodeURIComponent(movieId)}`);
}

export default function AdminTitlePage() {
  const { t } = useTranslation("studio");
  const { title, replacement, categories, accept } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  useErrorToasts(answer);
  return (
    <section className="grid max-w-3xl gap-6">
      <div>
        <Link to="/admin/movies" className="text-sm text-brand-300 hover:underline">
          {t("admin:movies.title")}
        </Link>
        <h1 className="mt-2 text-2xl font-bold break-words sm:text-3xl">{title.displayName}</h1>
        <TitleFacts title={title} />
        {replacement?.status === "processing" ? (
          <p className="mt-2 text-sm text-amber-200" data-replacement-status="processing">
            {t("replace.preparing", { file: replacement.originalName })}
          </p>
        ) : null}
      </div>
      <section aria-labelledby="details-title" className="grid gap-3">
        <h2 id="details-title" className="text-xl font-semibold">
          {t("edit.detailsTitle")}
        </h2>
        <TitleDetailsForm
          action={`/admin/movies/${title.id}`}
          values={title}
          categories={categories}
          seriesName={title.series?.name ?? null}
          errors={answer?.part === "details" ? answer : null}
          posterAccept={accept.poster}
        />
      </section>
    </section>
  );
}
