import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useTranslation } from "react-i18next";
import { TextPage, tList, type TextSection } from "~/components/layout/text-page";
import { getRequestT } from "~/i18n/translate.server";
import { titleMeta } from "~/utils/meta";

export const meta: MetaFunction<typeof loader> = ({ data }) => titleMeta(data);

export async function loader({ request }: LoaderFunctionArgs) {
  const { t } = await getRequestT(request, "pages");
  return { title: t("security.title") };
}

export default function Security() {
  const { t } = useTranslation("pages");
  return (
    <TextPage
      heading={t("security.heading")}
      intro={t("security.intro")}
      sections={tList<TextSection>(t, "security.sections")}
    />
  );
}
