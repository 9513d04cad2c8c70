import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { handleProfileForms } from "~/routes-support/profile-actions.server";
import { requireViewer } from "~/auth/guards.server";
import {
  ChangePasswordForm,
  ProfileForm,
  useProfileErrorToasts,
  type ProfileActionData,
} from "~/components/auth/profile-forms";
import { FormError } from "~/components/ui/form";
import { getRequestT } from "~/i18n/translate.server";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["auth"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.metaTitle ?? "Kallo" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireViewer(request);
  const { t } = await getRequestT(request, "auth");
  return {
    metaTitle: t("profile.editMetaTitle"),
    profile: { name: user.name, email: user.email, phoneNumber: user.phoneNumber },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireViewer(request);
  return handleProfileForms(request, user, { successPath: "/profile", passwordPath: "/editprofile" });
}

export default function EditProfile() {
  const { t } = useTranslation("auth");
  const { profile } = useLoaderData<typeof loader>();
  const actionData = useActionData<ProfileActionData>();
  useProfileErrorToasts();
  return (
    <section className="mx-auto grid w-full max-w-xl gap-8 px-4 py-12">
      <div>
        <h1 className="text-3xl font-bold">{t("profile.editTitle")}</h1>
        <div className="mt-6 grid gap-4 rounded-lg border border-white/10 bg-ink-900/60 p-6">
          <FormError errors={actionData} />
          <ProfileForm profile={profile} />
        </div>
      </div>
      <div>
        <h2 className="text-2xl font-bold">{t("profile.passwordTitle")}</h2>
        <div className="mt-4 rounded-lg border border-white/10 bg-ink-900/60 p-6">
          <ChangePasswordForm />
        </div>
      </div>
    </section>
  );
}
