import { useTranslation } from "~/i18n/use-translation";
import { HONEYPOT_FIELD } from "~/utils/honeypot";

/**
 * Hidden from people (and screen readers); robots that fill every field give
 * themselves away. Its own module: only the sign-in and sign-up pages, which
 * carry the `auth` translations, use it.
 */
export function Honeypot() {
  const { t } = useTranslation("auth");
  return (
    <div className="absolute -left-[9999px] h-px w-px overflow-hidden" aria-hidden="true">
      <label>
        {t("fields.honeypot")}
        <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}
