import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireViewer } from "~/auth/guards.server";
import { getRequestT } from "~/i18n/translate.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.metaTitle ?? "Kallo" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireViewer(request);
  const { t } = await getRequestT(request, "auth");
  return {
    metaTitle: t("profile.metaTitle"),
    profile: { name: user.name, email: user.email, phoneNumber: user.phoneNumber, role: user.role },
  };
}

export default function Profile() {
  const { t } = useTranslation("auth");
  const { profile } = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto w-full max-w-xl px-4 py-12">
      <h1 className="text-3xl font-bold">{t("profile.title")}</h1>
      <dl className="mt-6 grid gap-4 rounded-lg border border-white/10 bg-ink-900/60 p-6 sm:grid-cols-[10rem_1fr]">
        <dt className="text-sm text-slate-400">{t("fields.name")}</dt>
        <dd data-testid="profile-name">{profile.name}</dd>
        <dt className="text-sm text-slate-400">{t("fields.email")}</dt>
        <dd data-testid="profile-email">{profile.email}</dd>
        <dt className="text-sm text-slate-400">{t("fields.phoneNumber")}</dt>
        <dd data-testid="profile-phone">{profile.phoneNumber}</dd>
        <dt className="text-sm text-slate-400">{t("profile.role")}</dt>
        <dd>{t(`profile.roles.${profile.role}`)}</dd>
      </dl>
      <Link to="/editprofile" className="mt-6 inline-block rounded bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700">
        {t("profile.edit")}
      </Link>
    </section>
  );
}
