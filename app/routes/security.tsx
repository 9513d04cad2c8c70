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
  return { title: t("security.title") };
}

export default function Security() {
  const { t } = useTranslation("info");
  return (
    <TextPage
      heading={t("security.heading")}
      intro={t("security.intro")}
      sections={tList<TextSection>(t, "security.sections")}
    />
  );
}
