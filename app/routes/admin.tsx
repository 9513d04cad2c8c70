import type { LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { useLoaderData, useOutlet } from "@remix-run/react";
import { bucketHealth, cdnProblem } from "~/media/media-store.server";
import { useTranslation } from "~/i18n/use-translation";
import { requireAdmin } from "~/auth/guards.server";
import { SideNav } from "~/components/layout/side-nav";
import { getRequestT } from "~/i18n/translate.server";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["auth"] };

export const meta = metaTitleMeta;

/** Layout of every /admin/* page: administrators only (others get 403, signed-out visitors go to /login). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const { t } = await getRequestT(request, "auth");
  // The media bucket's state as last seen (a stale one is checked in the background, never waited for).
  const bucket = bucketHealth();
  const bucketProblem = bucket.configured && !bucket.ok ? bucket.message : await cdnProblem();
  return { metaTitle: t("admin.metaTitle"), bucketProblem: bucketProblem ?? null };
}

export default function AdminLayout() {
  const { t } = useTranslation("auth");
  const outlet = useOutlet();
  const { bucketProblem } = useLoaderData<typeof loader>();
  const links = [
    { to: "/admin/dashboard", label: t("admin.dashboard") },
    { to: "/admin/providerslist", label: t("admin.providers") },
    { to: "/admin/userlist", label: t("admin.users") },
    { to: "/admin/moviecategory", label: t("admin.categories") },
    { to: "/admin/movies", label: t("admin.movies") },
    { to: "/admin/series", label: t("admin.series") },
    { to: "/admin/userpayment", label: t("admin.payment") },
    { to: "/admin/registercontentprovider", label: t("admin.registerProvider") },
    { to: "/admin/Selectplan", label: t("admin.selectPlan") },
  ];
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-8 md:flex-row">
      <SideNav label={t("admin.navLabel")} links={links} />
      <div className="min-w-0 flex-1">
        {bucketProblem ? (
          <p
            role="alert"
            className="mb-4 rounded border border-red-700 bg-red-950 px-3 py-2 text-sm break-words text-red-100"
            data-testid="bucket-problem"
          >
            {t("admin.bucketProblem", { problem: bucketProblem })}
          </p>
        ) : null}
        {outlet ?? (
          <section>
            <h1 className="text-3xl font-bold">{t("admin.title")}</h1>
            <p className="mt-2 text-slate-300">{t("admin.intro")}</p>
          </section>
        )}
      </div>
    </div>
  );
}
