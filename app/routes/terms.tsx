import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useTranslation } from "~/i18n/use-translation";
import { TextPage, tList, type TextSection } from "~/components/layout/text-page";
import { getRequestT } from "~/i18n/translate.server";
import { titleMeta } from "~/utils/meta";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["info"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => titleMeta(data);

export async function loader({ request }: LoaderFunctionArgs) {
  const { t } = await getRequestT(request, "info");
  return { title: t("terms.title") };
}

export default function Terms() {
  const { t } = useTranslation("info");
  return (
    <TextPage
      heading={t("terms.heading")}
      lastUpdated={t("terms.lastUpdated")}
      intro={t("terms.intro")}
      sections={tList<TextSection>(t, "terms.sections")}
    />
  );
}
