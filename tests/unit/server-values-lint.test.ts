import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import { describe, it } from "vitest";
import rule from "../../lint-rules/server-values-in-browser.js";

/**
 * The lint rule that keeps `.server` values out of the browser's code
 * (lint-rules/server-values-in-browser.js): a `.server` module is empty in
 * the browser bundle, so such a value is undefined there while the server
 * render works — /admin/movies crashed that way once it hydrated.
 */
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({
  languageOptions: {
    parser: tseslint.parser,
    parserOptions: { ecmaFeatures: { jsx: true } },
  },
});

const route = "/repo/app/routes/admin.movies.tsx";
const component = "/repo/app/components/admin/filters.tsx";

tester.run("server-values-in-browser", rule, {
  valid: [
    {
      name: "a value used only by the loader and the action",
      filename: route,
      code: `
        import { FILTERS, listAll } from "~/services/admin-movies.server";
        const PAGE_SIZE = 20;
        function parse(value: string) { return FILTERS.includes(value); }
        export async function loader() { return { filters: FILTERS, rows: listAll(PAGE_SIZE), ok: parse("x") }; }
        export async function action() { return listAll(1); }
        export default function Page() { return <p>{PAGE_SIZE}</p>; }
      `,
    },
    {
      name: "types from a .server module, however imported",
      filename: route,
      code: `
        import type { Row } from "~/services/admin-movies.server";
        import { type Filter, FILTERS } from "~/services/admin-movies.server";
        export function loader() { return FILTERS; }
        export default function Page({ row }: { row: Row }) { const f: Filter = "a"; return <p>{f}</p>; }
      `,
    },
    {
      name: "typeof of a .server value is a type",
      filename: route,
      code: `
        import { FILTERS } from "~/services/admin-movies.server";
        type Filter = (typeof FILTERS)[number];
        export function loader() { return FILTERS; }
        export default function Page() { const f: Filter | null = null; return <p>{f}</p>; }
      `,
    },
    {
      name: "a .server module itself",
      filename: "/repo/app/services/admin.server.ts",
      code: `import { FILTERS } from "./other.server"; export const all = FILTERS.map((x) => x);`,
    },
    {
      name: "headers is the server's too",
      filename: route,
      code: `
        import { passRetryAfter } from "~/routes-support/form-response.server";
        export const headers = passRetryAfter;
        export default function Page() { return null; }
      `,
    },
    {
      name: "a resource route the browser never loads",
      filename: "/repo/app/routes/healthz.ts",
      code: `import { check } from "~/services/health.server"; const state = check(); export function loader() { return state; }`,
    },
  ],
  invalid: [
    {
      name: "a constant mapped by the page (the /admin/movies crash)",
      filename: route,
      code: `
        import { ADMIN_MOVIE_FILTERS, listAllMovies } from "~/services/admin-movies.server";
        export function loader() { return listAllMovies(); }
        export default function AdminMovies() { return <select>{ADMIN_MOVIE_FILTERS.map((name) => <option key={name}>{name}</option>)}</select>; }
      `,
      errors: [
        { messageId: "serverValue", data: { name: "ADMIN_MOVIE_FILTERS", source: "~/services/admin-movies.server" } },
      ],
    },
    {
      name: "through a helper the page calls",
      filename: route,
      code: `
        import { formatVoucherCode } from "~/services/vouchers.server";
        function Code({ code }: { code: string }) { return <span>{formatVoucherCode(code)}</span>; }
        export default function Payment() { return <Code code="x" />; }
      `,
      errors: [{ messageId: "serverValue" }],
    },
    {
      name: "in meta, and at the top of the module (it runs when the module loads)",
      filename: route,
      code: `
        import { SITE, makeList } from "~/services/site.server";
        const list = makeList();
        export const meta = () => [{ title: SITE }];
        export default function Page() { return null; }
      `,
      errors: [{ messageId: "serverValue" }, { messageId: "serverValue" }],
    },
    {
      name: "exported under a browser name",
      filename: route,
      code: `
        import { renderPage } from "~/services/pages.server";
        const Page = () => renderPage();
        export { Page as default };
      `,
      errors: [{ messageId: "serverValue" }],
    },
    {
      name: "any use in a component",
      filename: component,
      code: `
        import { FILTERS } from "~/services/admin-movies.server";
        export function Filters() { return <ul>{FILTERS.map((name) => <li key={name}>{name}</li>)}</ul>; }
      `,
      errors: [{ messageId: "serverValue" }],
    },
  ],
});
