import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { requireAdmin } from "~/auth/guards.server";
import { TitleEditPage } from "~/components/studio/title-edit-page";
import { useErrorToasts } from "~/components/ui/form";
import { getDb } from "~/db/client.server";
import { lingerOn } from "~/utils/request-body.server";
import { titleEditAction, titleEditPageLoader } from "~/routes-support/title-edit-page.server";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["studio", "admin"] };

export const meta = metaTitleMeta;

/**
 * /admin/movies/<id>: an administrator edits any title's details and poster
 * (the same rule and service as its provider: decision 051). Replacing the
 * film is its provider's; this page shows where a replacement stands.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return titleEditPageLoader(request, params.id ?? "", await requireAdmin(request));
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
    <TitleEditPage
      back={{ to: "/admin/movies", label: t("admin:movies.title") }}
      here={`/admin/movies/${title.id}`}
      title={title}
      categories={categories}
      posterAccept={accept.poster}
      answer={answer}
      notes={
        replacement?.status === "processing" ? (
          <p className="mt-2 text-sm text-amber-200" data-replacement-status="processing">
            {t("replace.preparing", { file: replacement.originalName })}
          </p>
        ) : null
      }
    />
  );
}
