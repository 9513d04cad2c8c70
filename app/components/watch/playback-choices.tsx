import { Form, useLocation } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "~/i18n/use-translation";
import type { PlayerQuality } from "~/services/playback.server";
import { useHydrated } from "~/components/ui/use-hydrated";

type Choices = {
  rungs: Array<{ rung: number; megabytesPerHour: number; megabytes: number }>;
  quality: PlayerQuality;
  dataSaver: boolean;
  estimate: { rung: number; megabytes: number } | null;
};

/** "1 h 32 min", "25 min", "9 s". */
function formatLength(seconds: number, t: (key: string, values: Record<string, number>) => string): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.round((seconds % 3600) / 60);
  if (hours > 0) return t("quality.hoursMinutes", { hours, minutes });
  if (seconds >= 60) return t("quality.minutes", { minutes: Math.round(seconds / 60) });
  return t("quality.seconds", { seconds: Math.round(seconds) });
}

/**
 * Under the player: what the film costs before play is pressed, the quality
 * menu (Auto and each rung the viewer may play, with MB per hour from the
 * real files), the rung now playing, and the data saver switch. Without
 * JavaScript the menu is a GET form (`?quality=`) and the switch a POST form.
 */
export function PlaybackChoices({
  movieId,
  durationSeconds,
  choices,
  quality,
  playingRung,
  onQualityChange,
}: {
  movieId: string;
  durationSeconds: number;
  choices: Choices;
  quality: PlayerQuality;
  playingRung: number | null;
  onQualityChange: (quality: PlayerQuality) => void;
}) {
  const { t } = useTranslation("watch");
  const location = useLocation();
  const selectId = useId();
  const hydrated = useHydrated();
  if (choices.rungs.length === 0) return null;

  const shown = quality === "auto" ? choices.estimate : choices.rungs.find((rung) => rung.rung === quality);
  const top = choices.rungs[choices.rungs.length - 1];
  const here = `${location.pathname}${location.search}`;

  return (
    <div className="mt-3 flex flex-wrap items-end justify-between gap-4 text-sm" data-testid="playback-choices">
      <div className="grid gap-1">
        {shown ? (
          <p data-testid="data-cost" data-megabytes={shown.megabytes}>
            {quality === "auto"
              ? t("quality.costAuto", {
                  megabytes: shown.megabytes,
                  rung: shown.rung,
                  length: formatLength(durationSeconds, t),
                })
              : t("quality.cost", {
                  megabytes: shown.megabytes,
                  rung: shown.rung,
                  length: formatLength(durationSeconds, t),
                })}
          </p>
        ) : null}
        <p aria-live="polite" className="text-xs text-slate-400" data-testid="playing-rung">
          {playingRung ? t("quality.playingAt", { rung: playingRung }) : "\u00a0"}
        </p>
      </div>

      <form
        method="get"
        action="/WatchMovie"
        className="flex max-w-full min-w-0 items-end gap-2"
        onSubmit={(event) => event.preventDefault()}
      >
        <input type="hidden" name="id" value={movieId} />
        <div className="grid min-w-0 gap-1">
          <label htmlFor={selectId} className="text-xs font-medium text-slate-300">
            {t("quality.label")}
          </label>
          <select
            id={selectId}
            name="quality"
            value={String(quality)}
            onChange={(event) => {
              const value = event.target.value === "auto" ? "auto" : Number(event.target.value);
              onQualityChange(value);
              const url = new URL(window.location.href);
              if (value === "auto") url.searchParams.delete("quality");
              else url.searchParams.set("quality", String(value));
              window.history.replaceState(window.history.state, "", url);
            }}
            className="max-w-full min-w-0 rounded border border-white/15 bg-ink-900 px-2 py-1.5 text-slate-50"
          >
            <option value="auto">
              {t("quality.auto", { rung: top.rung, megabytesPerHour: top.megabytesPerHour })}
            </option>
            {choices.rungs.map((rung) => (
              <option key={rung.rung} value={rung.rung}>
                {t("quality.option", { rung: rung.rung, megabytesPerHour: rung.megabytesPerHour })}
              </option>
            ))}
          </select>
        </div>
        {hydrated ? null : (
          <button type="submit" className="rounded border border-white/20 px-3 py-1.5 hover:bg-white/5">
            {t("quality.apply")}
          </button>
        )}
      </form>

      <Form
        method="post"
        action="/data-saver"
        className="grid gap-1"
        data-testid="data-saver"
        // The menu changes ?quality= without a navigation: come back to the address as it is now.
        onSubmit={(event) => {
          const field = event.currentTarget.elements.namedItem("redirectTo");
          if (field instanceof HTMLInputElement) field.value = `${window.location.pathname}${window.location.search}`;
        }}
      >
        <input type="hidden" name="redirectTo" value={here} />
        <input type="hidden" name="dataSaver" value={choices.dataSaver ? "off" : "on"} />
        <p className="text-xs text-slate-400">{choices.dataSaver ? t("dataSaver.isOn") : t("dataSaver.isOff")}</p>
        <button
          type="submit"
          aria-pressed={choices.dataSaver}
          className="rounded border border-white/20 px-3 py-1.5 hover:bg-white/5"
          data-testid="data-saver-toggle"
        >
          {choices.dataSaver ? t("dataSaver.turnOff") : t("dataSaver.turnOn")}
        </button>
      </Form>
    </div>
  );
}
