import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useTranslation } from "~/i18n/use-translation";
import { tList } from "~/components/layout/text-page";
import { getRequestT } from "~/i18n/translate.server";
import { titleMeta } from "~/utils/meta";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["info"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => titleMeta(data);

export async function loader({ request }: LoaderFunctionArgs) {
  const { t } = await getRequestT(request, "info");
  return { title: t("download.title") };
}

/** Kallo installs from the browser (web app manifest + service worker); this page says how. */
export default function Download() {
  const { t } = useTranslation("info");
  const platforms = [
    { heading: t("download.android"), steps: tList(t, "download.androidSteps") },
    { heading: t("download.ios"), steps: tList(t, "download.iosSteps") },
    { heading: t("download.desktop"), steps: tList(t, "download.desktopSteps") },
  ];
  return (
    <article className="mx-auto max-w-5xl px-4 py-12">
      <div className="flex flex-col items-start gap-6 sm:flex-row sm:items-center">
        <img
          src="/icons/icon-192.png"
          alt=""
          width={96}
          height={96}
          className="rounded-2xl shadow-lg shadow-brand-900/40"
        />
        <div>
          <h1 className="text-3xl font-extrabold tracking-tight text-white sm:text-4xl">{t("download.heading")}</h1>
          <p className="mt-3 max-w-2xl text-lg leading-relaxed text-slate-200">{t("download.intro")}</p>
        </div>
      </div>
      <div className="mt-10 grid gap-4 md:grid-cols-3">
        {platforms.map((platform) => (
          <section key={platform.heading} className="rounded-xl border border-white/10 bg-ink-900 p-6">
            <h2 className="text-lg font-bold text-white">{platform.heading}</h2>
            <ol className="mt-4 grid list-decimal gap-2 pl-5 text-sm text-slate-300 marker:font-bold marker:text-brand-400">
              {platform.steps.map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ol>
          </section>
        ))}
      </div>
      <p className="mt-8 text-sm text-slate-400">{t("download.note")}</p>
    </article>
  );
}
