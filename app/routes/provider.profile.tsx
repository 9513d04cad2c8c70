import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { requireProvider } from "~/auth/guards.server";
import { handleProfileForms, profileView } from "~/routes-support/profile-actions.server";
import { ProfilePage } from "~/components/auth/profile-forms";
import { Field } from "~/components/ui/form";
import { getRequestT } from "~/i18n/translate.server";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["auth"] };

export const meta = metaTitleMeta;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireProvider(request);
  const { t } = await getRequestT(request, "auth");
  return {
    metaTitle: t("provider.profileMetaTitle"),
    profile: { ...profileView(user), id: user.id, providerName: user.providerName ?? "" },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireProvider(request);
  return handleProfileForms(request, user, {
    successPath: "/provider/profile",
    passwordPath: "/provider/profile",
    serverErrorKey: "auth:errors.providerServerError",
  });
}

export default function ProviderProfile() {
  const { t } = useTranslation("auth");
  const { profile } = useLoaderData<typeof loader>();
  return (
    <ProfilePage
      className="grid max-w-xl gap-8"
      title={t("provider.profileTitle")}
      profile={profile}
      withProviderName
      submitLabel={t("provider.editProfile")}
      before={<Field label={t("fields.userId")} name="userId" readOnly value={profile.id} />}
    />
  );
}
