import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { Link, NavLink } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import type { Role } from "~/db/schema";
import { SearchBox, SearchIcon } from "./search-box";

export type TopBarUser = { id: string; name: string; role: Role; profile?: { name: string; children: boolean } };

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded px-2 py-2 text-center text-sm font-medium whitespace-nowrap sm:px-3 ${isActive ? "text-brand-300" : "text-slate-200 hover:text-white"}`;

const roundButton =
  "relative inline-flex h-10 w-10 shrink-0 cursor-pointer list-none items-center justify-center rounded-full text-slate-200 hover:bg-white/10 hover:text-white [&::-webkit-details-marker]:hidden";

/**
 * The top bar, phone first. On a phone: the name, then search (viewers),
 * the bell and the account menu, or Login and Sign up; the main links
 * (Home, Movies, Categories, Downloads — or Content Creator, Plans, About)
 * on a row of their own below, every one on the screen. From 768 px it is
 * one row with the search box open. Menus are `<details>`: they open without
 * JavaScript.
 */
export function TopBar({
  user,
  unreadNotifications,
  deviceCopy = false,
}: {
  user: TopBarUser | null;
  unreadNotifications: number;
  /** The copy of a page this device keeps for offline use: who opens it is not known, so no sign-in links. */
  deviceCopy?: boolean;
}) {
  const { t } = useTranslation();
  const viewer = user !== null && user.role !== "provider";
  const links = deviceCopy
    ? [{ to: "/downloads", label: t("nav.downloads") }]
    : !user
      ? [
          { to: "/cp", label: t("nav.contentCreator") },
          { to: "/plans", label: t("nav.plans") },
          { to: "/about", label: t("nav.about") },
        ]
      : [
          { to: "/", label: t("nav.home"), end: true },
          ...(viewer
            ? [
                { to: "/movies", label: t("nav.movies") },
                { to: "/moviecategory", label: t("nav.categories") },
                { to: "/downloads", label: t("nav.downloads") },
              ]
            : []),
        ];
  return (
    <header className="sticky top-0 z-40 border-b border-white/10 bg-ink-950/90 backdrop-blur">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-1 px-3 pt-2 sm:gap-x-3 sm:px-4 md:flex-nowrap md:py-3">
        <Link to="/" className="shrink-0 py-1 text-2xl font-extrabold tracking-tight text-brand-400 md:mr-2">
          {t("brand")}
        </Link>
        <nav aria-label={t("nav.main")} className="order-last w-full md:order-none md:w-auto">
          <ul className="flex justify-around md:justify-start md:gap-1">
            {links.map((link) => (
              <li key={link.to} className="min-w-0">
                <NavLink to={link.to} end={link.end} className={navLinkClass}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="ml-auto flex shrink-0 items-center gap-1 sm:gap-2">
          {viewer ? (
            <>
              <SearchBox className="hidden w-64 md:flex lg:w-80" />
              <PhoneSearch />
            </>
          ) : null}
          {deviceCopy ? null : user ? (
            <>
              <Bell unread={unreadNotifications} />
              <AccountMenu user={user} />
            </>
          ) : (
            <>
              <Link
                to="/login"
                className="rounded border border-white/20 px-3 py-2 text-sm font-semibold text-white hover:bg-white/10"
              >
                {t("nav.login")}
              </Link>
              <Link
                to="/register"
                className="rounded bg-brand-600 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-700"
              >
                {t("nav.signUp")}
              </Link>
            </>
          )}
        </div>
      </div>
    </header>
  );
}

/**
 * Closes a `<details>` menu when a navigation starts (pages change without a reload once the script
 * runs). At its start, not its end: a menu opened while the next page was still arriving (search,
 * tapped the moment a title showed) stays open.
 */
function useClosedOnNavigation() {
  const ref = useRef<HTMLDetailsElement>(null);
  const leavingFor = useNavigation().location?.key;
  useEffect(() => {
    if (leavingFor && ref.current) ref.current.open = false;
  }, [leavingFor]);
  return ref;
}

/** On a phone, search is one tap away: the icon opens the search box under the bar (focused, with JavaScript). */
function PhoneSearch() {
  const { t } = useTranslation();
  const menu = useClosedOnNavigation();
  const input = useRef<HTMLInputElement>(null);
  return (
    <details
      ref={menu}
      className="md:hidden"
      data-header-search=""
      onToggle={(event) => {
        if (event.currentTarget.open) input.current?.focus();
      }}
    >
      <summary className={roundButton} aria-label={t("search.open")}>
        <SearchIcon />
      </summary>
      <div className="absolute inset-x-0 top-full border-b border-white/10 bg-ink-950 px-3 py-3">
        <SearchBox
          ref={input}
          onDone={() => {
            if (menu.current) menu.current.open = false;
          }}
        />
      </div>
    </details>
  );
}

function Bell({ unread }: { unread: number }) {
  const { t } = useTranslation();
  return (
    <Link
      to="/notifications"
      className={roundButton}
      aria-label={unread > 0 ? t("nav.notificationsUnread", { count: unread }) : t("nav.notifications")}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
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
  );
}

function AccountMenu({ user }: { user: TopBarUser }) {
  const { t } = useTranslation();
  const menuRef = useClosedOnNavigation();
  const shownName = user.profile?.name ?? user.name;
  const initials =
    shownName
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]!.toUpperCase())
      .join("") || "?";
  // Providers keep their profile under /provider; viewers and administrators use the viewer pages.
  // A children's profile keeps to its own lists: the account's pages are the grown-ups'.
  const menu =
    user.role === "provider"
      ? [{ to: "/provider/profile", label: t("nav.profile") }]
      : user.profile?.children
        ? [
            { to: "/profiles", label: t("nav.switchProfile") },
            { to: "/history", label: t("nav.history") },
            { to: "/watch-later", label: t("nav.watchLater") },
            { to: "/saved", label: t("nav.saved") },
          ]
        : [
            { to: "/profiles", label: t("nav.switchProfile") },
            { to: "/profile", label: t("nav.profile") },
            { to: "/editprofile", label: t("nav.editProfile") },
            { to: "/history", label: t("nav.history") },
            { to: "/watch-later", label: t("nav.watchLater") },
            { to: "/saved", label: t("nav.saved") },
            { to: "/payment", label: t("nav.payment") },
          ];
  return (
    <details className="relative shrink-0" ref={menuRef}>
      <summary
        className={`${roundButton} bg-brand-600 text-sm font-bold text-white hover:bg-brand-700`}
        aria-label={t("nav.account")}
      >
        <span aria-hidden="true">{initials}</span>
      </summary>
      <div className="absolute right-0 mt-2 w-56 max-w-[calc(100vw-1.5rem)] rounded-lg border border-white/10 bg-ink-900 p-2 shadow-xl">
        <p className="truncate px-3 py-2 text-xs text-slate-400" data-testid="profile-in-use">
          {shownName}
        </p>
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
  );
}
