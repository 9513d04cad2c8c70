import { NavLink as RouterNavLink } from "@remix-run/react";
import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { NavLink } from "~/components/ui/link";

/** Which links a page at `location` marks as the current page, drawn by one NavLink or the other. */
type MenuLink = (props: { to: string; end: boolean; className: () => string; children: string }) => ReactNode;

/** Which links a page at `location` marks as the current page, drawn by one NavLink or the other. */
function currentLinks(component: MenuLink, location: string, links: [string, boolean][]) {
  const html = renderToString(
    createElement(
      StaticRouter,
      { location },
      links.map(([to, end]) =>
        createElement(component, { key: to + String(end), to, end, className: () => "", children: `${to} ${end}` }),
      ),
    ),
  );
  return [...html.matchAll(/<a[^>]*aria-current="page"[^>]*>([^<]*)</g)].map((match) => match[1]);
}

describe("a menu's link (NavLink)", () => {
  const links: [string, boolean][] = [
    ["/", true],
    ["/", false],
    ["/movies", false],
    ["/movies", true],
    ["/movies/", false],
    ["/Movies", false],
    ["/movie", false],
    ["/admin/series", false],
    ["/history", true],
  ];
  it("marks the current page by React Router's rule: the same path, or one below it unless `end`", () => {
    for (const location of [
      "/",
      "/movies",
      "/movies/",
      "/movies/abc",
      "/MOVIES",
      "/moviesx",
      "/admin/series/1",
      "/history?page=2",
    ]) {
      expect(currentLinks(NavLink, location, links), location).toEqual(
        currentLinks(RouterNavLink as MenuLink, location, links),
      );
    }
    expect(currentLinks(NavLink, "/movies/abc", links)).toEqual(["/movies false", "/movies/ false", "/Movies false"]);
    expect(currentLinks(NavLink, "/", links)).toEqual(["/ true", "/ false"]);
  });

  it("is an ordinary link to the page, styled by whether it is current", () => {
    const html = renderToString(
      createElement(
        StaticRouter,
        { location: "/saved" },
        createElement(NavLink, { to: "/saved", className: ({ isActive }) => (isActive ? "on" : "off") }, "Saved"),
        createElement(NavLink, { to: "/history", className: ({ isActive }) => (isActive ? "on" : "off") }, "History"),
      ),
    );
    expect(html).toContain('<a class="on" aria-current="page" href="/saved" data-discover="true">Saved</a>');
    expect(html).toContain('<a class="off" href="/history" data-discover="true">History</a>');
  });
});
