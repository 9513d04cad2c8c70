import { Link, NavLink } from "@remix-run/react";
import { useTranslation } from "react-i18next";

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded px-3 py-2 text-sm font-medium ${isActive ? "text-brand-300" : "text-slate-200 hover:text-white"}`;

/** The top bar for signed-out visitors. The signed-in bar (bell, avatar menu) comes with accounts. */
export function TopBar() {
  const { t } = useTranslation();
  return (
    <header className="sticky top-0 z-40 border-b border-white/10 bg-ink-950/90 backdrop-blur">
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-3">
        <Link to="/" className="text-2xl font-extrabold tracking-tight text-brand-400">
          {t("brand")}
        </Link>
        <nav aria-label={t("nav.main")}>
          <ul className="flex flex-wrap items-center gap-1">
            <li>
              <NavLink to="/cp" className={navLinkClass}>
                {t("nav.contentCreator")}
              </NavLink>
            </li>
            <li>
              <NavLink to="/plans" className={navLinkClass}>
                {t("nav.plans")}
              </NavLink>
            </li>
            <li>
              <NavLink to="/about" className={navLinkClass}>
                {t("nav.about")}
              </NavLink>
            </li>
            <li>
              <Link
                to="/login"
                className="ml-2 rounded bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-500"
              >
                {t("nav.login")}
              </Link>
            </li>
          </ul>
        </nav>
      </div>
    </header>
  );
}
