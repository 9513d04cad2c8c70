import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { redirect } from "@remix-run/node";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { SignInForm } from "~/components/auth/sign-in-form";
import { landingPath, signInAtDoor } from "~/auth/authenticator.server";
import { getOptionalUser } from "~/auth/guards.server";
import { getRequestT } from "~/i18n/translate.server";
import { passRetryAfter } from "~/routes-support/form-response.server";
import { sendCodeToWrittenNumber } from "~/routes-support/phone-code.server";
import { readForm } from "~/utils/read-form.server";
import { safeRedirectPath } from "~/utils/redirect";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["auth"] };

export const headers = passRetryAfter;

export const meta = metaTitleMeta;

/** The content creators' landing page and their own sign-in door. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  if (user?.role === "provider") {
    throw redirect(safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), landingPath(user.role)));
  }
  const { t } = await getRequestT(request, "auth");
  return { metaTitle: t("cp.metaTitle") };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request.clone());
  // "Send me a code": no password, a code by SMS to the number written.
  if (form.get("intent") === "code") return sendCodeToWrittenNumber(request, form, "sign_in");
  return signInAtDoor(request, "provider");
}

export default function ContentCreator() {
  const { t } = useTranslation("auth");
  return (
    <section className="mx-auto grid max-w-5xl gap-10 px-4 py-12 md:grid-cols-2">
      <div>
        <h1 className="text-4xl font-extrabold">{t("cp.title")}</h1>
        <p className="mt-4 text-lg text-slate-300">{t("cp.intro")}</p>
        <p className="mt-8 text-slate-300">{t("cp.applyIntro")}</p>
        <Link
          to="/ContentproviderPage"
          className="mt-3 inline-block rounded border border-brand-400 px-5 py-2.5 font-semibold text-brand-200 hover:bg-brand-600/20"
        >
          {t("cp.apply")}
        </Link>
      </div>
      <div className="rounded-lg border border-white/10 bg-ink-900/60 p-6">
        <h2 className="mb-4 text-2xl font-bold">{t("cp.signInTitle")}</h2>
        <SignInForm
          footer={
            <p className="text-sm">
              <Link to="/reset" className="text-brand-300 hover:underline">
                {t("login.forgot")}
              </Link>
            </p>
          }
        />
      </div>
    </section>
  );
}
