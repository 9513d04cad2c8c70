import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { TextPage, tList, type TextSection } from "~/components/layout/text-page";
import { getRequestT } from "~/i18n/translate.server";
import type { loader as rootLoader } from "~/root";
import { titleMeta } from "~/utils/meta";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["info"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => titleMeta(data);

export async function loader({ request }: LoaderFunctionArgs) {
  const { t } = await getRequestT(request, "info");
  return { title: t("help.title") };
}

export default function Help() {
  const { t } = useTranslation("info");
  const customerCare = useRouteLoaderData<typeof rootLoader>("root")?.customerCare;
  return (
    <TextPage heading={t("help.heading")} intro={t("help.intro")} sections={tList<TextSection>(t, "help.sections")}>
      {customerCare ? (
        <dl className="mt-4 grid gap-2 rounded-lg border border-white/10 bg-ink-900 p-5 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-6">
          <dt className="font-semibold text-slate-200">{t("help.emailLabel")}</dt>
          <dd>
            <a href={`mailto:${customerCare.email}`} className="text-brand-300 hover:underline">
              {customerCare.email}
            </a>
          </dd>
          <dt className="font-semibold text-slate-200">{t("help.phoneLabel")}</dt>
          <dd>
            <a href={`tel:${customerCare.phone.replace(/[^+\d]/g, "")}`} className="text-brand-300 hover:underline">
              {customerCare.phone}
            </a>
          </dd>
        </dl>
      ) : null}
    </TextPage>
  );
}
