import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { handleProfileForms, profileView } from "~/routes-support/profile-actions.server";
import { requireViewer } from "~/auth/guards.server";
import { ProfilePage } from "~/components/auth/profile-forms";
import { getRequestT } from "~/i18n/translate.server";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["auth"] };

export const meta = metaTitleMeta;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireViewer(request, { grownUp: true });
  const { t } = await getRequestT(request, "auth");
  return {
    metaTitle: t("profile.editMetaTitle"),
    profile: profileView(user),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireViewer(request, { grownUp: true });
  return handleProfileForms(request, user, { successPath: "/profile", passwordPath: "/editprofile" });
}

export default function EditProfile() {
  const { t } = useTranslation("auth");
  const { profile } = useLoaderData<typeof loader>();
  return (
    <ProfilePage
      className="mx-auto grid w-full max-w-xl gap-8 px-4 py-12"
      title={t("profile.editTitle")}
      profile={profile}
    />
  );
}
