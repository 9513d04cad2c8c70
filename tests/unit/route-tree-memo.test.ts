/**
 * The server's route tree is made once per build (patches of @remix-run/router,
 * @remix-run/react and react-router-dom, applied by `npm install`; decision 033):
 * these tests fail if a reinstall dropped a patch, and prove what the memos
 * hand out is as safe to change as what they replace.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import type * as RouterModule from "@remix-run/router";
import type * as RouterDomServerModule from "react-router-dom/server";
import { describe, expect, it } from "vitest";

// The server loads the CommonJS builds (the patched ones); browsers get the untouched ES modules.
const require = createRequire(import.meta.url);
const router = require("@remix-run/router") as typeof RouterModule;
const routerDomServer = require("react-router-dom/server") as typeof RouterDomServerModule;
const patchedRemixServer = require.resolve("@remix-run/react/dist/server.js");

const routes = [
  {
    id: "root",
    path: "/",
    children: [
      { id: "movies", path: "movies" },
      { id: "series", path: "series/:id" },
      { id: "watch", path: "WatchMovie" },
    ],
  },
];

describe("route matching on the server", () => {
  it("answers a path as before, with matches a caller may change", () => {
    const first = router.matchRoutes(routes, "/series/abc");
    expect(first?.map((match) => match.route.id)).toEqual(["root", "series"]);
    expect(first?.at(-1)?.params).toEqual({ id: "abc" });
    (first!.at(-1)!.params as Record<string, string>).id = "changed";
    first!.pop();

    const again = router.matchRoutes(routes, "/series/abc");
    expect(again?.map((match) => match.route.id)).toEqual(["root", "series"]);
    expect(again?.at(-1)?.params).toEqual({ id: "abc" });
    expect(router.matchRoutes(routes, "/series/other")?.at(-1)?.params).toEqual({ id: "other" });
    expect(router.matchRoutes(routes, "/nowhere/at/all")).toBeNull();
  });

  it("a changed tree (a new array) is matched afresh", () => {
    const grown = [{ ...routes[0], children: [...routes[0].children, { id: "about", path: "about" }] }];
    expect(router.matchRoutes(routes, "/about")).toBeNull();
    expect(router.matchRoutes(grown, "/about")?.at(-1)?.route.id).toBe("about");
  });
});

describe("the static router of a render", () => {
  it("makes a tree's data routes once and matches each request's own context", async () => {
    const handler = router.createStaticHandler(routes);
    const contextOf = async (url: string) => {
      const context = await handler.query(new Request(`http://kallo.test${url}`));
      if (context instanceof Response) throw new Error("unexpected response");
      return context;
    };
    const one = routerDomServer.createStaticRouter(routes, await contextOf("/movies"));
    const two = routerDomServer.createStaticRouter(routes, await contextOf("/series/x"));
    expect(two.routes).toBe(one.routes);
    expect(one.state.matches.map((match) => match.route.id)).toEqual(["root", "movies"]);
    expect(two.state.matches.map((match) => match.route.id)).toEqual(["root", "series"]);
    expect(two.state.matches.at(-1)?.params).toEqual({ id: "x" });
  });

  it("RemixServer keeps its server routes per build", () => {
    expect(fs.readFileSync(patchedRemixServer, "utf8")).toContain("cachedServerRoutes(manifest.routes");
  });
});
