import { useLocation } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { useHydrated } from "~/components/ui/use-hydrated";

export type PlayerSubtitleTrack = { language: string; label: string; url: string };

/** Remember a choice made with JavaScript (the menu already switched the track): the cookie, without a page load. */
export function rememberSubtitleChoice(language: string | null) {
  const body = new FormData();
  body.set("language", language ?? "off");
  void fetch("/subtitle-language", {
    method: "POST",
    body,
    headers: { Accept: "application/json" },
    credentials: "same-origin",
  }).catch(() => undefined);
}

/**
 * The subtitles menu under the player: Off and each language of the title.
 * Without JavaScript it is a form that posts the choice (kept in a cookie)
 * and comes back to the page, whose `<track default>` then shows it; with
 * JavaScript the choice switches the shown track at once, whichever way the
 * film plays (native HLS, the player or the MP4), and is remembered in the
 * background.
 */
export function SubtitleChoices({
  tracks,
  language,
  onLanguageChange,
}: {
  tracks: readonly PlayerSubtitleTrack[];
  language: string | null;
  onLanguageChange: (language: string | null) => void;
}) {
  const { t } = useTranslation("subtitles");
  const location = useLocation();
  const selectId = useId();
  const hydrated = useHydrated();
  if (tracks.length === 0) return null;
  return (
    <form
      method="post"
      action="/subtitle-language"
      className="mt-3 flex items-end gap-2 text-sm"
      data-testid="subtitle-choices"
      onSubmit={(event) => event.preventDefault()}
    >
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <div className="grid gap-1">
        <label htmlFor={selectId} className="text-xs font-medium text-slate-300">
          {t("menu.label")}
        </label>
        <select
          id={selectId}
          name="language"
          value={language ?? "off"}
          onChange={(event) => {
            const chosen = event.target.value === "off" ? null : event.target.value;
            onLanguageChange(chosen);
            rememberSubtitleChoice(chosen);
          }}
          className="rounded border border-white/15 bg-ink-900 px-2 py-1.5 text-slate-50"
        >
          <option value="off">{t("menu.off")}</option>
          {tracks.map((track) => (
            <option key={track.language} value={track.language} lang={track.language}>
              {track.label}
            </option>
          ))}
        </select>
      </div>
      {hydrated ? null : (
        <button type="submit" className="rounded border border-white/20 px-3 py-1.5 hover:bg-white/5">
          {t("menu.apply")}
        </button>
      )}
    </form>
  );
}
