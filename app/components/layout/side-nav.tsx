import { Form } from "@remix-run/react";
import { NavLink } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";

export type SideNavLink = { to: string; label: string };

/** The provider and administrator side menu; Log out is a POST form, like everywhere else. */
export function SideNav({ label, links }: { label: string; links: SideNavLink[] }) {
  const { t } = useTranslation("auth");
  return (
    <nav aria-label={label} className="md:w-60 md:shrink-0">
      <ul className="flex gap-1 overflow-x-auto rounded-lg border border-white/10 bg-ink-900/60 p-2 md:flex-col">
        {links.map((link) => (
          <li key={link.to}>
            <NavLink
              to={link.to}
              className={({ isActive }) =>
                `block rounded px-3 py-2 text-sm whitespace-nowrap ${isActive ? "bg-brand-600/30 text-brand-200" : "text-slate-200 hover:bg-white/5"}`
              }
            >
              {link.label}
            </NavLink>
          </li>
        ))}
        <li>
          <Form method="post" action="/logout">
            <button
              type="submit"
              className="block w-full rounded px-3 py-2 text-left text-sm whitespace-nowrap text-slate-200 hover:bg-white/5"
            >
              {t("logout")}
            </button>
          </Form>
        </li>
      </ul>
    </nav>
  );
}
