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
  return { title: t("privacy.title") };
}

export default function Privacy() {
  const { t } = useTranslation("info");
  return (
    <TextPage
      heading={t("privacy.heading")}
      lastUpdated={t("privacy.lastUpdated")}
      intro={t("privacy.intro")}
      sections={tList<TextSection>(t, "privacy.sections")}
    />
  );
}
