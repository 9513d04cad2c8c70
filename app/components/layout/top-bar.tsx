import { Form, useLocation } from "@remix-run/react";
import { Link, NavLink } from "~/components/ui/link";
import { useEffect, useRef } from "react";
import { useTranslation } from "~/i18n/use-translation";
import type { Role } from "~/db/schema";

export type TopBarUser = { id: string; name: string; role: Role };

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded px-3 py-2 text-sm font-medium ${isActive ? "text-brand-300" : "text-slate-200 hover:text-white"}`;

/** Signed out: Content Creator, Plans, About, Login. Signed in: Home, Movies and Categories (not for providers), the bell and the avatar menu. */
export function TopBar({ user, unreadNotifications }: { user: TopBarUser | null; unreadNotifications: number }) {
  const { t } = useTranslation();
  return (
    <header className="sticky top-0 z-40 border-b border-white/10 bg-ink-950/90 backdrop-blur">
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-3">
        <Link to="/" className="text-2xl font-extrabold tracking-tight text-brand-400">
          {t("brand")}
        </Link>
        <nav aria-label={t("nav.main")}>
          {user ? <SignedInLinks user={user} unread={unreadNotifications} /> : <SignedOutLinks />}
        </nav>
      </div>
    </header>
  );
}

function SignedOutLinks() {
  const { t } = useTranslation();
  return (
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
          className="ml-2 rounded bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
        >
          {t("nav.login")}
        </Link>
      </li>
    </ul>
  );
}

function SignedInLinks({ user, unread }: { user: TopBarUser; unread: number }) {
  const { t } = useTranslation();
  const menuRef = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  // With JavaScript, pages change without a reload: close the menu after each navigation.
  useEffect(() => {
    if (menuRef.current) menuRef.current.open = false;
  }, [location.key]);
  const initials =
    user.name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]!.toUpperCase())
      .join("") || "?";
  // Providers keep their profile under /provider; viewers and administrators use the viewer pages.
  const menu =
    user.role === "provider"
      ? [{ to: "/provider/profile", label: t("nav.profile") }]
      : [
          { to: "/profile", label: t("nav.profile") },
          { to: "/editprofile", label: t("nav.editProfile") },
          { to: "/history", label: t("nav.history") },
          { to: "/watch-later", label: t("nav.watchLater") },
          { to: "/saved", label: t("nav.saved") },
          { to: "/payment", label: t("nav.payment") },
        ];
  return (
    <ul className="flex items-center gap-2">
      <li>
        <NavLink to="/" end className={navLinkClass}>
          {t("nav.home")}
        </NavLink>
      </li>
      {user.role === "provider" ? null : (
        <>
          <li>
            <NavLink to="/movies" className={navLinkClass}>
              {t("nav.movies")}
            </NavLink>
          </li>
          <li className="hidden sm:block">
            <NavLink to="/moviecategory" className={navLinkClass}>
              {t("nav.categories")}
            </NavLink>
          </li>
          <li>
            <NavLink to="/downloads" className={navLinkClass}>
              {t("nav.downloads")}
            </NavLink>
          </li>
        </>
      )}
      <li>
        <Link
          to="/notifications"
          className="relative inline-flex h-10 w-10 items-center justify-center rounded-full text-slate-200 hover:bg-white/10 hover:text-white"
          aria-label={unread > 0 ? t("nav.notificationsUnread", { count: unread }) : t("nav.notifications")}
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="h-5 w-5"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="M18 8a6 6 0 1 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
            <path d="M13.73 21a2 2 0 0 1-3.46 0" />
          </svg>
          {unread > 0 ? (
            <span
              aria-hidden="true"
              className="absolute -top-0.5 -right-0.5 rounded-full bg-brand-600 px-1.5 text-[10px] font-bold text-white"
            >
              {unread > 99 ? "99+" : unread}
            </span>
          ) : null}
        </Link>
      </li>
      <li className="relative">
        {/* <details> opens and closes without JavaScript. */}
        <details className="group" ref={menuRef}>
          <summary
            className="flex h-10 w-10 cursor-pointer list-none items-center justify-center rounded-full bg-brand-600 text-sm font-bold text-white hover:bg-brand-700 [&::-webkit-details-marker]:hidden"
            aria-label={t("nav.account")}
          >
            <span aria-hidden="true">{initials}</span>
          </summary>
          <div className="absolute right-0 mt-2 w-52 rounded-lg border border-white/10 bg-ink-900 p-2 shadow-xl">
            <p className="truncate px-3 py-2 text-xs text-slate-400">{user.name}</p>
            <ul>
              {menu.map((item) => (
                <li key={item.to}>
                  <Link to={item.to} className="block rounded px-3 py-2 text-sm text-slate-200 hover:bg-white/5">
                    {item.label}
                  </Link>
                </li>
              ))}
              <li>
                <Form method="post" action="/logout">
                  <button
                    type="submit"
                    className="block w-full rounded px-3 py-2 text-left text-sm text-slate-200 hover:bg-white/5"
                  >
                    {t("nav.logout")}
                  </button>
                </Form>
              </li>
            </ul>
          </div>
        </details>
      </li>
    </ul>
  );
}
