import { Link as RemixLink, useLocation, useNavigate, type LinkProps } from "@remix-run/react";
import { createContext, forwardRef, useCallback, useContext, type MouseEvent, type ReactNode } from "react";

/**
 * The site's links (decision 033). A link to a page of the site by its path
 * ("/WatchMovie?id=…") is drawn as a plain `<a>` that, once the page runs,
 * navigates inside the app on a plain left click exactly as Remix's `<Link>`
 * does (`navigate(to)`, replacing the history entry when it leads where the
 * page already is), and carries `data-discover` so the routes it leads to are
 * fetched ahead as Remix's would. Without JavaScript, and for a click with a
 * modifier key, a middle click or a `target`, it is an ordinary link.
 *
 * Why: each Remix `<Link>` resolves its path two or three times and runs a
 * dozen router hooks while the server renders it. A catalogue page has about
 * fifty links; as Remix links they cost ~40 µs each, a fifth of the page's
 * CPU. Here the page has one navigate function (`InAppLinks`) and every link
 * reads it from context.
 *
 * Anything else (a relative `to`, an object, `prefetch`, `replace`, `state`,
 * `reloadDocument`, …) is handed to Remix's `<Link>` unchanged.
 */
export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(props, ref) {
  const follow = useContext(FollowContext);
  if (!isPlainPath(props)) return <RemixLink ref={ref} {...props} />;
  const { to, onClick, ...anchor } = props;
  return (
    <a
      ref={ref}
      {...anchor}
      href={to}
      data-discover="true"
      onClick={
        onClick
          ? (event) => {
              onClick(event);
              follow?.(event);
            }
          : (follow ?? undefined)
      }
    />
  );
});

/**
 * A menu's link to a page of the site (the top bar, the library tabs, the side
 * menus): `aria-current="page"` and `className({ isActive })` while that page
 * is shown, by React Router's NavLink rule — the path itself, or a path under
 * it unless `end` (case-insensitive) — drawn as the site's `Link`. React
 * Router's NavLink runs a handful of router hooks per link while the server
 * renders it; this reads the location once.
 */
export function NavLink({
  to,
  end = false,
  className,
  ...anchor
}: Omit<LinkProps, "to" | "className"> & {
  to: string;
  end?: boolean;
  className: (state: { isActive: boolean }) => string;
}) {
  const { pathname } = useLocation();
  const isActive = isActivePath(pathname, to, end);
  return <Link {...anchor} to={to} className={className({ isActive })} aria-current={isActive ? "page" : undefined} />;
}

/** React Router's rule for NavLink (`caseSensitive` off): the same path, or (without `end`) a path below it. */
export function isActivePath(pathname: string, to: string, end: boolean): boolean {
  const here = pathname.toLowerCase();
  const path = (to.split(/[?#]/)[0] ?? to).toLowerCase();
  if (here === path) return true;
  if (end) return false;
  const slashAt = path !== "/" && path.endsWith("/") ? path.length - 1 : path.length;
  return here.startsWith(path) && here.charAt(slashAt) === "/";
}

/** Around the page (the root layout): the one navigate function its links share. */
export function InAppLinks({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const follow = useCallback(
    (event: MouseEvent<HTMLAnchorElement>) => {
      const link = event.currentTarget;
      if (!isPlainClick(event) || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
      const href = link.getAttribute("href");
      if (!href) return;
      event.preventDefault();
      const here = window.location.pathname + window.location.search + window.location.hash;
      navigate(href, { replace: href === here });
    },
    [navigate],
  );
  return <FollowContext.Provider value={follow}>{children}</FollowContext.Provider>;
}

const FollowContext = createContext<((event: MouseEvent<HTMLAnchorElement>) => void) | null>(null);

/** The props Remix's `<Link>` acts on beyond an `<a>`'s own: with any of them, its `<Link>` draws the link. */
const REMIX_LINK_PROPS = [
  "prefetch",
  "replace",
  "state",
  "reloadDocument",
  "relative",
  "preventScrollReset",
  "viewTransition",
  "unstable_viewTransition",
  "discover",
] as const;

function isPlainPath(props: LinkProps): props is LinkProps & { to: string } {
  const { to } = props;
  return (
    typeof to === "string" &&
    to.startsWith("/") &&
    !to.startsWith("//") &&
    REMIX_LINK_PROPS.every((name) => (props as unknown as Record<string, unknown>)[name] === undefined)
  );
}

/** A left click without a modifier that nothing else has handled (React Router's rule for its links). */
function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !event.metaKey &&
    !event.altKey &&
    !event.ctrlKey &&
    !event.shiftKey
  );
}
