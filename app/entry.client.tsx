import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { TranslationSourceContext } from "~/i18n/page-translations";
import { createBrowserTranslations } from "~/i18n/translations.client";

// The page's translations were preloaded by its HTML; hydrate once they are in, so the
// first render shows the same text as the server's. If they cannot be fetched the page
// stays as the server sent it: every link and form works without JavaScript.
const translations = createBrowserTranslations(document);
translations.ready.then(
  () => {
    startTransition(() => {
      hydrateRoot(
        document,
        <StrictMode>
          <TranslationSourceContext.Provider value={translations}>
            <RemixBrowser />
          </TranslationSourceContext.Provider>
        </StrictMode>,
      );
    });
  },
  (error: unknown) => console.warn("Translations could not be loaded; the page works without JavaScript", error),
);

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
