import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { requireProvider } from "~/auth/guards.server";
import { SideNav } from "~/components/layout/side-nav";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["auth"] };

/** Layout of every /provider/* page: providers only (others get 403, signed-out visitors go to /cp). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireProvider(request);
  return { providerName: user.providerName ?? user.name };
}

export default function ProviderLayout() {
  const { t } = useTranslation("auth");
  const links = [
    { to: "/provider/Movieupload", label: t("provider.upload") },
    { to: "/provider/movielist", label: t("provider.list") },
    { to: "/provider/series", label: t("provider.series") },
    { to: "/provider/profile", label: t("provider.profile") },
    { to: "/provider/stats", label: t("provider.statistics") },
    { to: "/provider/payment", label: t("provider.payment") },
    { to: "/provider/recentlywatched", label: t("provider.recentlyWatched") },
    { to: "/provider/watchlater", label: t("provider.watchLater") },
    { to: "/provider/savedvideo", label: t("provider.savedVideo") },
  ];
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-8 md:flex-row">
      <SideNav label={t("provider.navLabel")} links={links} />
      <div className="min-w-0 flex-1">
        <Outlet />
      </div>
    </div>
  );
}
