import type { LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { useLoaderData } from "@remix-run/react";
import { requireProvider } from "~/auth/guards.server";
import { KeptCountsPage } from "~/components/studio/kept-counts";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { keptCountsForPage } from "~/services/provider-stats.server";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["studio"] };

export const meta = metaTitleMeta;

export async function loader({ request }: LoaderFunctionArgs) {
  const provider = await requireProvider(request);
  const { t } = await getRequestT(request, "studio");
  return { metaTitle: t("watchLater.metaTitle"), rows: keptCountsForPage(getDb(), provider.id, "watch_later") };
}

export default function WatchLaterCounts() {
  return <KeptCountsPage copy="watchLater" rows={useLoaderData<typeof loader>().rows} />;
}
