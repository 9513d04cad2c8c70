import { Form, useLocation } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { LANGUAGES } from "~/i18n/config";

/** Plain form buttons: switching language works before (and without) JavaScript. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const current = i18n.language;
  return (
    <Form method="post" action="/language" className="flex items-center gap-1 text-sm" reloadDocument>
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <span className="sr-only">{t("language.label")}</span>
      {LANGUAGES.map((language) => (
        <button
          key={language}
          type="submit"
          name="language"
          value={language}
          lang={language}
          aria-pressed={current === language}
          aria-label={t("language.switchTo", { language: t(`language.${language}`) })}
          className={
            current === language
              ? "rounded px-2 py-1 font-semibold text-brand-300"
              : "rounded px-2 py-1 text-slate-300 hover:text-white"
          }
        >
          {language.toUpperCase()}
        </button>
      ))}
    </Form>
  );
}
