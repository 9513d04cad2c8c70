import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { ReviewState } from "~/components/studio/review-state";
import { requireProvider } from "~/auth/guards.server";
import { DataTable } from "~/components/ui/data-table";
import { SeriesDetailsForm } from "~/components/series/series-form";
import { useErrorToasts, type FormErrors } from "~/components/ui/form";
import { listCategoryOptions } from "~/services/categories.server";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { POSTER_EXTENSIONS } from "~/media/file-types.server";
import { storageRoot } from "~/media/storage.server";
import { createSeries, listProviderSeries } from "~/services/series.server";
import { readSeriesForm } from "~/routes-support/upload-forms.server";
import { clientAddress } from "~/utils/client.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["series", "studio"] };

export const meta = metaTitleMeta;

/** /provider/series: this provider's series (seasons, episodes, views) and the form that makes a new one. */
export async function loader({ request }: LoaderFunctionArgs) {
  const provider = await requireProvider(request);
  const { t } = await getRequestT(request, "series");
  const db = getDb();
  return {
    metaTitle: t("studio.metaTitle"),
    series: listProviderSeries(db, provider.id),
    categories: listCategoryOptions(db),
    posterAccept: POSTER_EXTENSIONS.join(","),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const provider = await requireProvider(request);
  const root = storageRoot();
  const form = await readSeriesForm(request, root);
  if (!form.ok)
    return data({ fieldErrors: form.fieldErrors, formError: form.formError } satisfies FormErrors, {
      status: form.status,
    });
  try {
    const made = await createSeries(getDb(), provider, form.fields, {
      poster: form.poster,
      root,
      ipAddress: clientAddress(request),
    });
    if (!made.ok)
      return data({ fieldErrors: made.fieldErrors, formError: made.formError } satisfies FormErrors, {
        status: made.status,
      });
    return redirectWithToast(
      `/provider/series/${made.seriesId}`,
      { type: "success", key: "series:studio.created" },
      { status: 303 },
    );
  } finally {
    await form.discard();
  }
}

export default function ProviderSeries() {
  const { t } = useTranslation("series");
  const { series, categories: categoryOptions, posterAccept } = useLoaderData<typeof loader>();
  const errors = useActionData<typeof action>() as FormErrors | undefined;
  useErrorToasts(errors);
  return (
    <section className="max-w-4xl">
      <h1 className="text-3xl font-bold">{t("studio.title")}</h1>
      <p className="mt-2 text-slate-300">{t("studio.intro")}</p>
      <DataTable
        dense
        minWidth="min-w-[560px]"
        testId="series-list"
        rows={series}
        rowKey={(row) => row.id}
        rowAttributes={(row) => ({ "data-series-id": row.id })}
        empty={t("studio.empty")}
        columns={[
          {
            key: "name",
            header: t("studio.columns.name"),
            cell: (row) => (
              <Link to={`/provider/series/${row.id}`} className="font-medium hover:underline">
                {row.name}
              </Link>
            ),
          },
          { key: "seasons", header: t("studio.columns.seasons"), align: "right", cell: (row) => row.seasons },
          { key: "episodes", header: t("studio.columns.episodes"), align: "right", cell: (row) => row.episodes },
          { key: "views", header: t("studio.columns.views"), align: "right", cell: (row) => row.views },
          {
            key: "status",
            header: t("studio.columns.status"),
            cell: (row) => (
              <ReviewState
                approved={row.approved}
                returnReason={row.returnReason}
                returnNote={row.returnNote}
                idField="seriesId"
                id={row.id}
                name={row.name}
                action={`/provider/series/${row.id}`}
                back="/provider/series"
              />
            ),
          },
        ]}
      />
      <h2 className="mt-10 text-xl font-semibold">{t("studio.newTitle")}</h2>
      <div className="mt-3 max-w-2xl">
        <SeriesDetailsForm
          action="/provider/series"
          categories={categoryOptions}
          errors={errors}
          submitLabel={t("studio.create")}
          pendingLabel={t("studio.creating")}
          posterAccept={posterAccept}
        />
      </div>
    </section>
  );
}
