import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { LanguageSwitcher } from "./language-switcher";

export type CustomerCare = { email: string; phone: string };

const FOOTER_LINKS = [
  { to: "/about", key: "footer.aboutUs" },
  { to: "/terms", key: "footer.terms" },
  { to: "/plans", key: "footer.pricing" },
  { to: "/privacy", key: "footer.privacy" },
  { to: "/security", key: "footer.security" },
  { to: "/help", key: "footer.help" },
] as const;

/** `version`: the running version, for an administrator (null for everyone else). */
export function Footer({ customerCare, version }: { customerCare: CustomerCare; version?: string | null }) {
  const { t } = useTranslation();
  return (
    <footer className="mt-16 border-t border-white/10 bg-ink-900">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="text-xl font-bold text-brand-400">{t("brand")}</p>
          <p className="mt-2 text-sm text-slate-300">{t("tagline")}</p>
        </div>
        <nav aria-label={t("footer.links")}>
          <ul className="grid gap-2 text-sm">
            {FOOTER_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="text-slate-300 hover:text-white hover:underline">
                  {t(link.key)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="text-sm">
          <p className="font-semibold text-slate-100">
            <Link to="/download" className="hover:underline">
              {t("footer.downloadApp")}
            </Link>
          </p>
          <p className="mt-4 font-semibold text-slate-100">{t("footer.customerCare")}</p>
          <p className="mt-1 text-slate-300">
            <a href={`mailto:${customerCare.email}`} className="hover:underline">
              {customerCare.email}
            </a>
          </p>
          <p className="text-slate-300">
            <a href={`tel:${customerCare.phone.replace(/[^+\d]/g, "")}`} className="hover:underline">
              {customerCare.phone}
            </a>
          </p>
        </div>
        <div className="text-sm">
          <LanguageSwitcher />
        </div>
      </div>
      <p className="border-t border-white/5 py-4 text-center text-xs text-slate-400">
        {t("footer.rights", { year: new Date().getFullYear() })}
        {version ? (
          <span className="ml-2" data-testid="running-version">
            · {t("footer.version", { version })}
          </span>
        ) : null}
      </p>
    </footer>
  );
}
