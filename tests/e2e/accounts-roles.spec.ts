import type { Browser, BrowserContext } from "@playwright/test";
import {
  blockByEmail,
  createAdmin,
  createApprovedProvider,
  createViewer,
  signInThroughForm,
} from "./fixtures/accounts";
import type { TestAccount } from "./fixtures/accounts";
import { expect, test } from "./fixtures/test";

/**
 * Every viewer, provider and admin page that exists so far, visited by every
 * kind of person: the server answers 200, 403 or a redirect to the right door.
 */
type Persona = "anonymous" | "viewer" | "provider" | "admin" | "blocked viewer" | "blocked provider";
type Expected = 200 | 400 | 403 | "/login" | "/cp";

/** A viewer's page: viewers and administrators see it, providers are refused, the rest sign in first. */
const VIEWERS_PAGE: Record<Persona, Expected> = {
  anonymous: "/login",
  viewer: 200,
  provider: 403,
  admin: 200,
  "blocked viewer": "/login",
  "blocked provider": "/login",
};

const PAGES: Array<{ path: string; expected: Record<Persona, Expected> }> = [
  ...["/profile", "/editprofile", "/moviecategory", "/history", "/watch-later", "/saved", "/series/demoseries01"].map(
    (path) => ({ path, expected: VIEWERS_PAGE }),
  ),
  {
    path: "/notifications",
    expected: {
      anonymous: "/login",
      viewer: 200,
      provider: 200,
      admin: 200,
      "blocked viewer": "/login",
      "blocked provider": "/login",
    },
  },
  {
    path: "/provider/profile",
    expected: {
      anonymous: "/cp",
      viewer: 403,
      provider: 200,
      admin: 403,
      "blocked viewer": "/cp",
      "blocked provider": "/cp",
    },
  },
  ...[
    "/admin",
    "/admin/providerslist",
    "/admin/userlist",
    "/admin/moviecategory",
    "/admin/movies",
    "/admin/registercontentprovider",
    "/admin/Selectplan",
    "/admin/audit",
  ].map((path) => ({
    path,
    expected: {
      anonymous: "/login",
      viewer: 403,
      provider: 403,
      admin: 200,
      "blocked viewer": "/login",
      "blocked provider": "/login",
    } as Record<Persona, Expected>,
  })),
];

/** Form posts to the same pages are guarded the same way. */
const ACTIONS: Array<{ path: string; form: Record<string, string>; expected: Record<Persona, Expected> }> = [
  ...["/admin/providerslist", "/admin/userlist", "/admin/moviecategory", "/admin/movies", "/admin/Selectplan"].map(
    (path) => ({
      path,
      form: { intent: "nothing" },
      expected: {
        anonymous: "/login",
        viewer: 403,
        provider: 403,
        admin: 400,
        "blocked viewer": "/login",
        "blocked provider": "/login",
      } as Record<Persona, Expected>,
    }),
  ),
  {
    path: "/editprofile",
    form: { intent: "profile" },
    expected: {
      anonymous: "/login",
      viewer: 400,
      provider: 403,
      admin: 400,
      "blocked viewer": "/login",
      "blocked provider": "/login",
    },
  },
  {
    path: "/provider/profile",
    form: { intent: "profile" },
    expected: {
      anonymous: "/cp",
      viewer: 403,
      provider: 400,
      admin: 403,
      "blocked viewer": "/cp",
      "blocked provider": "/cp",
    },
  },
];

async function contextFor(
  browser: Browser,
  persona: Persona,
  baseURL: string,
): Promise<{ context: BrowserContext; account?: TestAccount }> {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  if (persona === "anonymous") return { context };
  const account =
    persona === "admin"
      ? await createAdmin("matrix")
      : persona === "provider" || persona === "blocked provider"
        ? await createApprovedProvider("matrix")
        : await createViewer("matrix");
  const page = await context.newPage();
  await signInThroughForm(page, account.role === "provider" ? "/cp" : "/login", account.email, account.password);
  await expect(page).not.toHaveURL(/\/(login|cp)(\?|$)/);
  await page.close();
  // Blocking ends the sessions of an account that was signed in.
  if (persona.startsWith("blocked")) blockByEmail(account.email);
  return { context, account };
}

const PERSONAS: Persona[] = ["anonymous", "viewer", "provider", "admin", "blocked viewer", "blocked provider"];

for (const persona of PERSONAS) {
  test(`role matrix: pages and form posts as ${persona}`, async ({ browser, baseURL }) => {
    const { context } = await contextFor(browser, persona, baseURL!);
    const page = await context.newPage();
    for (const { path, expected } of PAGES) {
      const want = expected[persona];
      const response = await page.goto(path);
      if (typeof want === "number") {
        expect(response?.status(), `${persona} GET ${path}`).toBe(want);
        expect(new URL(page.url()).pathname, `${persona} GET ${path}`).toBe(path);
        if (want === 403) await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
      } else {
        const url = new URL(page.url());
        expect(url.pathname, `${persona} GET ${path}`).toBe(want);
        expect(url.searchParams.get("redirectTo"), `${persona} GET ${path}`).toBe(path);
      }
    }

    for (const { path, form, expected } of ACTIONS) {
      const want = expected[persona];
      const response = await context.request.post(path, { form, maxRedirects: 0 });
      if (typeof want === "number") {
        expect(response.status(), `${persona} POST ${path}`).toBe(want);
      } else {
        expect(response.status(), `${persona} POST ${path}`).toBe(302);
        expect(response.headers().location, `${persona} POST ${path}`).toBe(
          `${want}?redirectTo=${encodeURIComponent(path)}`,
        );
      }
    }

    if (persona === "viewer" || persona === "admin" || persona === "provider") {
      // The signed-in top bar: Home, the bell and the avatar menu instead of Login.
      await page.goto("/notifications");
      const bar = page.getByRole("banner");
      await expect(bar.getByRole("link", { name: "Home" })).toBeVisible();
      await expect(bar.getByRole("link", { name: "Notifications" })).toBeVisible();
      await expect(bar.getByLabel("Account menu")).toBeVisible();
      await expect(bar.getByRole("link", { name: "Login" })).toHaveCount(0);
      await expect(page.getByText("Nothing new yet.")).toBeVisible();
    }
    if (persona === "admin") {
      await page.goto("/admin");
      const menu = page.getByRole("navigation", { name: "Administration menu" });
      for (const label of [
        "Content Provider list",
        "User list",
        "Movie Categories",
        "Movies",
        "Payment",
        "Create a content creator",
        "Plans",
      ]) {
        await expect(menu.getByRole("link", { name: label, exact: true })).toBeVisible();
      }
      await expect(menu.getByRole("button", { name: "Log out" })).toBeVisible();
      // A signed-in administrator who opens /login goes on to the dashboard.
      await page.goto("/login");
      await expect(page).toHaveURL(/\/admin\/dashboard$/);
    }
    await context.close();
  });
}

test("the original's public /userlist now needs an administrator", async ({ browser, baseURL }) => {
  const anonymous = await contextFor(browser, "anonymous", baseURL!);
  const anonymousPage = await anonymous.context.newPage();
  await anonymousPage.goto("/userlist");
  expect(new URL(anonymousPage.url()).pathname).toBe("/login");
  await anonymous.context.close();

  const viewer = await contextFor(browser, "viewer", baseURL!);
  const viewerPage = await viewer.context.newPage();
  const refused = await viewerPage.goto("/userlist");
  expect(refused?.status()).toBe(403);
  await expect(viewerPage.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  await viewer.context.close();

  const admin = await contextFor(browser, "admin", baseURL!);
  const adminPage = await admin.context.newPage();
  const allowed = await adminPage.goto("/userlist");
  expect(allowed?.status()).toBe(200);
  await expect(adminPage).toHaveURL(/\/admin\/userlist$/);
  await admin.context.close();
});
