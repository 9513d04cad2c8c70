import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useTranslation } from "~/i18n/use-translation";
import { getRequestT } from "~/i18n/translate.server";
import { titleMeta } from "~/utils/meta";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["pages"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => titleMeta(data);

export async function loader({ request }: LoaderFunctionArgs) {
  const { t } = await getRequestT(request, "pages");
  return { title: t("offlinePage.title") };
}

/**
 * The page the service worker precaches and shows when a navigation fails with
 * no connection. "Try again" is a plain link to the home page, so it works even
 * when the page was served from the cache without its scripts.
 */
export default function Offline() {
  const { t } = useTranslation();
  const { t: tp } = useTranslation("pages");
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <svg
        viewBox="0 0 24 24"
        width="64"
        height="64"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        className="text-brand-400"
      >
        <path
          d="M2 8.5a15 15 0 0 1 20 0M5 12a10 10 0 0 1 14 0M8.5 15.5a5 5 0 0 1 7 0M12 19h.01M3 3l18 18"
          strokeLinecap="round"
        />
      </svg>
      <h1 className="mt-6 text-3xl font-bold">{t("offline.title")}</h1>
      <p className="mt-3 text-slate-300">{t("offline.text")}</p>
      <a href="/" className="mt-8 rounded bg-brand-500 px-5 py-2.5 font-bold text-ink-950 hover:bg-brand-400">
        {tp("offlinePage.retry")}
      </a>
    </section>
  );
}
