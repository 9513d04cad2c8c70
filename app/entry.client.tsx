import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { createI18n, DEFAULT_LANGUAGE, isLanguage } from "~/i18n/config";

const htmlLang = document.documentElement.lang;
const i18n = createI18n(isLanguage(htmlLang) ? htmlLang : DEFAULT_LANGUAGE);

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <RemixBrowser />
      </I18nextProvider>
    </StrictMode>,
  );
});

// The service worker keeps the app shell for offline use; it is optional, so failures are only logged.
// This module is loaded by a dynamic import that often finishes after the load event, so only wait
// for "load" when it has not happened yet.
if ("serviceWorker" in navigator && window.location.protocol !== "file:") {
  const register = () => {
    navigator.serviceWorker.register("/sw.js").catch((error: unknown) => {
      console.warn("Service worker registration failed", error);
    });
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
