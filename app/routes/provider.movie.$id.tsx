import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { requireProvider, requireProviderSendingFilm } from "~/auth/guards.server";
import { FilmReplacement } from "~/components/studio/film-replacement";
import { TitleEditPage } from "~/components/studio/title-edit-page";
import { useErrorToasts } from "~/components/ui/form";
import { getDb } from "~/db/client.server";
import { titleEditAction, titleEditPageLoader } from "~/routes-support/title-edit-page.server";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["studio"] };

export const meta = metaTitleMeta;

/**
 * /provider/movie/<id>: one of this provider's titles — edit its details and
 * poster (live at once: decision 051), and replace its film while the current
 * one keeps playing. Another provider's title is refused (403).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return titleEditPageLoader(request, params.id ?? "", await requireProvider(request));
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
    <TitleEditPage
      back={{ to: "/provider/movielist", label: t("edit.backToList") }}
      here={here}
      watchTo={`${here}/watch`}
      title={title}
      categories={categories}
      posterAccept={accept.poster}
      answer={answer}
    >
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
    </TitleEditPage>
  );
}
