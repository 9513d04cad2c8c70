import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { redirect } from "@remix-run/node";
import { useSearchParams } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { AuthCard, SignInForm } from "~/components/auth/sign-in-form";
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

/** Viewers and administrators sign in here; someone already signed in goes on to their page. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  if (user) {
    const redirectTo = new URL(request.url).searchParams.get("redirectTo");
    throw redirect(safeRedirectPath(redirectTo, landingPath(user.role)));
  }
  const { t } = await getRequestT(request, "auth");
  return { metaTitle: t("login.metaTitle") };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request.clone());
  // "Send me a code": no password, a code by SMS to the number written.
  if (form.get("intent") === "code") return sendCodeToWrittenNumber(request, form, "sign_in");
  return signInAtDoor(request, "member");
}

export default function Login() {
  const { t } = useTranslation("auth");
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo");
  return (
    <AuthCard title={t("login.title")} intro={t("login.intro")}>
      <SignInForm
        footer={
          <div className="grid gap-2 text-sm text-slate-300">
            <p>
              <Link to="/reset" className="text-brand-300 hover:underline">
                {t("login.forgot")}
              </Link>
            </p>
            <p>
              {t("login.noAccount")}{" "}
              <Link
                to={redirectTo ? `/register?${new URLSearchParams({ redirectTo })}` : "/register"}
                className="text-brand-300 hover:underline"
              >
                {t("login.registerLink")}
              </Link>
            </p>
            <p>
              {t("login.providerHint")}{" "}
              <Link to="/cp" className="text-brand-300 hover:underline">
                {t("login.providerLink")}
              </Link>
            </p>
          </div>
        }
      />
    </AuthCard>
  );
}
