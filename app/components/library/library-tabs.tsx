import { NavLink } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";

/** History, Watch later and Saved: the viewer's own lists, one tab each. */
export function LibraryTabs() {
  const { t } = useTranslation("browse");
  const tabs = [
    { to: "/history", label: t("library.history") },
    { to: "/watch-later", label: t("library.watchLater") },
    { to: "/saved", label: t("library.saved") },
  ];
  return (
    <nav aria-label={t("library.tabsLabel")} className="mt-4 border-b border-white/10">
      <ul className="flex gap-1">
        {tabs.map((tab) => (
          <li key={tab.to}>
            <NavLink
              to={tab.to}
              end
              className={({ isActive }) =>
                `inline-block border-b-2 px-4 py-2 text-sm font-medium ${isActive ? "border-brand-400 text-brand-300" : "border-transparent text-slate-300 hover:text-white"}`
              }
            >
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
