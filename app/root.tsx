import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { ErrorPage } from "~/components/layout/error-page";
import { CHILDREN_REFUSAL } from "~/utils/refusals";
import { Footer } from "~/components/layout/footer";
import { runningVersion } from "~/utils/version.server";
import { TopBar } from "~/components/layout/top-bar";
import { InAppLinks } from "~/components/ui/link";
import { Toaster } from "~/components/ui/toaster";
import { getOptionalUser } from "~/auth/guards.server";
import { getDb } from "~/db/client.server";
import { catalogueHashes } from "~/i18n/catalogues.server";
import { getLanguage } from "~/i18n/language.server";
import { usePageTranslations, type TranslationHandle } from "~/i18n/page-translations";
import { TranslatorContext } from "~/i18n/use-translation";
import { countUnreadNotifications } from "~/services/notifications.server";
import { getEnv } from "~/utils/env.server";
import { useNonce } from "~/utils/nonce";
import { getToasts } from "~/utils/toast.server";
import stylesheet from "~/tailwind.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/icons/icon-192.png" },
];

export const meta: MetaFunction = () => [{ title: "Kallo" }];

/** The top bar, footer, toasts and error pages; each route adds what its page uses. */
export const handle: TranslationHandle = { i18n: ["common"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const env = getEnv();
  const [language, { toasts, headers }, account] = await Promise.all([
    getLanguage(request),
    getToasts(request),
    getOptionalUser(request),
  ]);
  // Only what the top bar needs about the signed-in person reaches every page.
  const user = account
    ? {
        id: account.id,
        name: account.name,
        role: account.role,
        // Who is watching on this device: its name in the account menu, and a children's profile's narrower menu.
        profile: { name: account.profile.name || account.name, children: account.profile.children },
      }
    : null;
  // The service worker's copy of a page for this device offline (public/sw.js): rendered without a
  // session, but opened by whoever uses the device, so its top bar is neither signed in nor signed out.
  const deviceCopy = request.headers.get("X-Kallo-Shell") === "1";
  const unreadNotifications = account
    ? countUnreadNotifications(getDb(), account.id, { children: account.profile.children })
    : 0;
  return data(
    {
      language,
      // Where this language's translation files are: a navigation fetches those a page needs and lacks.
      translationHashes: catalogueHashes(language),
      toasts,
      customerCare: env.customerCare,
      // Which version runs, for the administrator who upgrades it.
      version: account?.role === "admin" ? runningVersion().version : null,
      user,
      unreadNotifications,
      deviceCopy,
    },
    { headers: headers ?? undefined },
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const rootData = useRouteLoaderData<typeof loader>("root");
  const matches = useMatches();
  // Only this language, only the namespaces of the routes on screen (and of the toasts shown).
  const { translator, language, preloads } = usePageTranslations({
    language: rootData?.language,
    routes: matches,
    keys: (rootData?.toasts ?? []).map((toast) => toast.key),
    hashes: rootData?.translationHashes,
  });

  return (
    <TranslatorContext.Provider value={translator}>
      <InAppLinks>
        <html lang={language} dir="ltr">
          <head>
            <meta charSet="utf-8" />
            <meta name="viewport" content="width=device-width, initial-scale=1" />
            <meta name="theme-color" content="#0b0d12" />
            <Meta />
            {preloads.map((file) => (
              <link
                key={file.href}
                rel="preload"
                as="fetch"
                crossOrigin="anonymous"
                href={file.href}
                data-translation={`${file.language}:${file.namespace}`}
              />
            ))}
            <Links />
          </head>
          <body className="flex min-h-screen flex-col">
            <a
              href="#main"
              className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-black"
            >
              {translator.t("skipToContent")}
            </a>
            <TopBar
              user={rootData?.user ?? null}
              unreadNotifications={rootData?.unreadNotifications ?? 0}
              deviceCopy={rootData?.deviceCopy ?? false}
            />
            <main id="main" className="flex-1">
              {children}
            </main>
            <Footer
              customerCare={rootData?.customerCare ?? { email: "", phone: "" }}
              version={rootData?.version ?? null}
            />
            <Toaster toasts={rootData?.toasts ?? []} />
            {/* Scripts first: its modulepreload links are then read before any inline script, which a
              browser may not run (nor read past) until the stylesheet has arrived. On a slow link
              that held every script back until the CSS was in (about 0.7 s at 500 kbps). */}
            <Scripts nonce={nonce} />
            <ScrollRestoration nonce={nonce} />
          </body>
        </html>
      </InAppLinks>
    </TranslatorContext.Provider>
  );
}

export default function App() {
  useLoaderData<typeof loader>();
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return <ErrorPage kind="notFound" status={404} />;
    // A children's profile at a title (or series) rated above PG: said so, with the way to another profile.
    if (error.status === 403 && error.data === CHILDREN_REFUSAL) return <ErrorPage kind="children" status={403} />;
    if (error.status === 403) return <ErrorPage kind="forbidden" status={403} />;
    if (error.status === 400) return <ErrorPage kind="badRequest" status={400} />;
    if (error.status === 503) return <ErrorPage kind="diskFull" status={503} />;
  }
  return <ErrorPage kind="server" status={isRouteErrorResponse(error) ? error.status : 500} />;
}
