import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { requireProvider, requireProviderSendingFilm } from "~/auth/guards.server";
import { TitleFacts } from "~/components/studio/title-facts";
import { FilmReplacement } from "~/components/studio/film-replacement";
import { TitleDetailsForm } from "~/components/studio/title-details-form";
import { useErrorToasts } from "~/components/ui/form";
import { Link } from "~/components/ui/link";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { loadTitleEditPage, titleEditAction } from "~/routes-support/title-edit-page.server";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["studio"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.metaTitle ?? "Kallo" }];

/**
 * /provider/movie/<id>: one of this provider's titles — edit its details and
 * poster (live at once: decision 051), and replace its film while the current
 * one keeps playing. Another provider's title is refused (403).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const provider = await requireProvider(request);
  const page = await loadTitleEditPage(getDb(), params.id ?? "", provider);
  const { t } = await getRequestT(request, "studio");
  return { metaTitle: t("edit.metaTitle", { name: page.title.displayName }), ...page };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const provider = await requireProviderSendingFilm(request);
  const movieId = params.id ?? "";
  return titleEditAction(request, getDb(), movieId, provider, `/provider/movie/${encodeURIComponent(movieId)}`);
}

export default function ProviderTitlePage() {
  const { t } = useTranslation("studio");
  const { title, replacement, replace, categories, accept, maxUploadBytes } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  useErrorToasts(answer);
  const here = `/provider/movie/${title.id}`;
  return (
    <section className="grid max-w-3xl gap-6">
      <div>
        <Link to="/provider/movielist" className="text-sm text-brand-300 hover:underline">
          {t("edit.backToList")}
        </Link>
        <h1 className="mt-2 text-2xl font-bold break-words sm:text-3xl">{title.displayName}</h1>
        <TitleFacts title={title} />
      </div>
      <section aria-labelledby="details-title" className="grid gap-3">
        <h2 id="details-title" className="text-xl font-semibold">
          {t("edit.detailsTitle")}
        </h2>
        <TitleDetailsForm
          action={here}
          values={title}
          categories={categories}
          seriesName={title.series?.name ?? null}
          errors={answer?.part === "details" ? answer : null}
          posterAccept={accept.poster}
        />
      </section>
      {replace ? (
        <section aria-labelledby="replace-title" className="grid gap-3">
          <h2 id="replace-title" className="text-xl font-semibold">
            {t("replace.title")}
          </h2>
          <FilmReplacement
            movieId={title.id}
            action={here}
            replacement={replacement}
            allowed={replace.allowed}
            refusal={replace.refusal}
            unfinished={replace.unfinished}
            accept={accept.movie}
            maxUploadBytes={maxUploadBytes}
            errors={answer?.part === "film" ? answer : null}
          />
        </section>
      ) : null}
    </section>
  );
}
