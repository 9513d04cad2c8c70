import type { LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { Form, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { requireViewer } from "~/auth/guards.server";
import { getRequestT } from "~/i18n/translate.server";
import { isDataSaverOn } from "~/routes-support/preferences.server";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["auth", "watch"] };

export const meta = metaTitleMeta;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireViewer(request, { grownUp: true });
  const { t } = await getRequestT(request, "auth");
  return {
    metaTitle: t("profile.metaTitle"),
    profile: { name: user.name, email: user.email, phoneNumber: user.phoneNumber, role: user.role },
    dataSaver: await isDataSaverOn(request, user),
  };
}

export default function Profile() {
  const { t } = useTranslation("auth");
  const { t: tWatch } = useTranslation("watch");
  const { profile, dataSaver } = useLoaderData<typeof loader>();
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
      <Link
        to="/editprofile"
        className="mt-6 inline-block rounded bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700"
      >
        {t("profile.edit")}
      </Link>
      <Form
        method="post"
        action="/data-saver"
        className="mt-8 grid gap-2 rounded-lg border border-white/10 bg-ink-900/60 p-6"
        data-testid="data-saver"
      >
        <h2 className="text-lg font-semibold">{tWatch("dataSaver.title")}</h2>
        <p className="text-sm text-slate-300">
          {dataSaver ? tWatch("dataSaver.isOn") : tWatch("dataSaver.isOff")} {tWatch("dataSaver.explain")}
        </p>
        <input type="hidden" name="redirectTo" value="/profile" />
        <input type="hidden" name="dataSaver" value={dataSaver ? "off" : "on"} />
        <div>
          <button
            type="submit"
            aria-pressed={dataSaver}
            className="rounded border border-white/20 px-4 py-2 text-sm hover:bg-white/5"
            data-testid="data-saver-toggle"
          >
            {dataSaver ? tWatch("dataSaver.turnOff") : tWatch("dataSaver.turnOn")}
          </button>
        </div>
      </Form>
    </section>
  );
}
