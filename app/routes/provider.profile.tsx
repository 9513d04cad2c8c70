import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { requireProvider } from "~/auth/guards.server";
import { handleProfileForms, PROFILE_FIELDS } from "~/routes-support/profile-actions.server";
import {
  ChangePasswordForm,
  ProfileForm,
  useProfileErrorToasts,
  type ProfileActionData,
} from "~/components/auth/profile-forms";
import { Field, FormError } from "~/components/ui/form";
import { getRequestT } from "~/i18n/translate.server";
import { formFailure } from "~/routes-support/form-response.server";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["auth"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.metaTitle ?? "Kallo" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireProvider(request);
  const { t } = await getRequestT(request, "auth");
  return {
    metaTitle: t("provider.profileMetaTitle"),
    profile: {
      id: user.id,
      name: user.name,
      email: user.email,
      phoneNumber: user.phoneNumber,
      providerName: user.providerName ?? "",
    },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireProvider(request);
  const copy = request.clone();
  try {
    return await handleProfileForms(request, user, {
      successPath: "/provider/profile",
      passwordPath: "/provider/profile",
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    // The provider sees the message the original app promised; the operator sees the cause.
    console.error("[provider profile] save failed", error);
    const form = await copy.formData().catch(() => new FormData());
    const values = Object.fromEntries(PROFILE_FIELDS.map((field) => [field, String(form.get(field) ?? "")]));
    return formFailure(500, {
      formError: "auth:errors.providerServerError",
      values: { ...values, intent: String(form.get("intent") ?? "profile") },
    });
  }
}

export default function ProviderProfile() {
  const { t } = useTranslation("auth");
  const { profile } = useLoaderData<typeof loader>();
  const actionData = useActionData<ProfileActionData>();
  useProfileErrorToasts();
  return (
    <section className="grid max-w-xl gap-8">
      <div>
        <h1 className="text-3xl font-bold">{t("provider.profileTitle")}</h1>
        <div className="mt-6 grid gap-4 rounded-lg border border-white/10 bg-ink-900/60 p-6">
          <FormError errors={actionData} />
          <Field label={t("fields.userId")} name="userId" readOnly value={profile.id} />
          <ProfileForm profile={profile} withProviderName submitLabel={t("provider.editProfile")} />
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
