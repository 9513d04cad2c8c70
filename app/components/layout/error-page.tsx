import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";

const KINDS = {
  notFound: { title: "errors.notFoundTitle", text: "errors.notFoundText" },
  forbidden: { title: "errors.forbiddenTitle", text: "errors.forbiddenText" },
  server: { title: "errors.serverTitle", text: "errors.serverText" },
  badRequest: { title: "errors.badRequestTitle", text: "errors.badRequestText" },
  diskFull: { title: "errors.diskFullTitle", text: "errors.diskFullText" },
  children: { title: "errors.childrenTitle", text: "errors.childrenText" },
} as const;

export function ErrorPage({ kind, status }: { kind: keyof typeof KINDS; status: number }) {
  const { t } = useTranslation();
  const copy = KINDS[kind];
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <p className="text-7xl font-black text-brand-500" aria-hidden="true">
        {status}
      </p>
      <h1 className="mt-4 text-3xl font-bold">{t(copy.title)}</h1>
      <p className="mt-3 text-slate-300">{t(copy.text)}</p>
      {kind === "server" ? <p className="mt-1 text-slate-400">{t("errors.tryAgain")}</p> : null}
      {kind === "children" ? (
        <Link to="/profiles" className="mt-6 text-brand-300 underline">
          {t("nav.switchProfile")}
        </Link>
      ) : null}
      <Link to="/" className="mt-8 rounded bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700">
        {t("errors.goHome")}
      </Link>
    </section>
  );
}
