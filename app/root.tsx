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
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { ErrorPage } from "~/components/layout/error-page";
import { Footer } from "~/components/layout/footer";
import { TopBar } from "~/components/layout/top-bar";
import { Toaster } from "~/components/ui/toaster";
import { getOptionalUser } from "~/auth/guards.server";
import { getDb } from "~/db/client.server";
import { getLanguage } from "~/i18n/language.server";
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

export async function loader({ request }: LoaderFunctionArgs) {
  const env = getEnv();
  const [language, { toasts, headers }, account] = await Promise.all([
    getLanguage(request),
    getToasts(request),
    getOptionalUser(request),
  ]);
  // Only what the top bar needs about the signed-in person reaches every page.
  const user = account ? { id: account.id, name: account.name, role: account.role } : null;
  const unreadNotifications = account ? countUnreadNotifications(getDb(), account.id) : 0;
  return data(
    { language, toasts, customerCare: env.customerCare, user, unreadNotifications },
    { headers: headers ?? undefined },
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const rootData = useRouteLoaderData<typeof loader>("root");
  const { t, i18n } = useTranslation();
  const language = rootData?.language ?? "en";

  // Keep the client's i18next in step with the language the server rendered.
  useEffect(() => {
    if (i18n.language !== language) void i18n.changeLanguage(language);
  }, [i18n, language]);

  return (
    <html lang={language} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b0d12" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-black"
        >
          {t("skipToContent")}
        </a>
        <TopBar user={rootData?.user ?? null} unreadNotifications={rootData?.unreadNotifications ?? 0} />
        <main id="main" className="flex-1">
          {children}
        </main>
        <Footer customerCare={rootData?.customerCare ?? { email: "", phone: "" }} />
        <Toaster toasts={rootData?.toasts ?? []} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
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
    if (error.status === 403) return <ErrorPage kind="forbidden" status={403} />;
  }
  return <ErrorPage kind="server" status={isRouteErrorResponse(error) ? error.status : 500} />;
}
