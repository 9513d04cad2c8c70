import { Form, useLocation } from "@remix-run/react";
import { useId, useMemo } from "react";
import { useTranslation } from "~/i18n/use-translation";
import type { PlayerQuality } from "~/services/playback.server";
import { useHydrated } from "~/components/ui/use-hydrated";
import { estimateAutoCost, megabytesOf, playsAv1Family, type CostEstimate, type CostRung } from "~/media/data-cost";
import { DATA_SAVER_MAX_RUNG } from "~/media/ladder";
import { useDecodesAv1 } from "./av1-support";
import { playedRungs, reportedLinkKbps } from "./device-link";

type Choices = {
  rungs: Array<CostRung & { rung: number }>;
  /** The title's AV1 + Opus rungs (the same qualities), for a browser that decodes AV1 smoothly. */
  av1?: { codecs: string; rungs: Array<CostRung & { rung: number }> } | null;
  quality: PlayerQuality;
  dataSaver: boolean;
  autoCost: CostEstimate | null;
};

/**
 * The choices as this browser will play them: where it decodes AV1 smoothly
 * and the AV1 family is the one to play (`playsAv1Family`, the rule the
 * master playlist follows), each quality with an AV1 twin costs what the AV1
 * rung costs, and Auto is estimated over the AV1 rungs alone (the player
 * stays in the family it starts in). Otherwise the H.264 figures, as the
 * server rendered them.
 */
function useChoicesAsPlayed(choices: Choices): { choices: Choices; av1: boolean } {
  const decodes = useDecodesAv1(choices.av1?.codecs);
  return useMemo(() => {
    const av1 = choices.av1;
    if (!decodes || !av1) return { choices, av1: false };
    if (!playsAv1Family(choices.rungs, av1.rungs, { linkKbps: reportedLinkKbps(), dataSaver: choices.dataSaver }))
      return { choices, av1: false };
    const rungs = choices.rungs.map((rung) => av1.rungs.find((twin) => twin.rung === rung.rung) ?? rung);
    return {
      choices: { ...choices, rungs, autoCost: estimateAutoCost(av1.rungs, { linkKbps: reportedLinkKbps() }) },
      av1: true,
    };
  }, [choices, decodes]);
}

type T = (key: string, values?: Record<string, unknown>) => string;

/** "1 h 32 min", "25 min", "9 s". */
function formatLength(seconds: number, t: T): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.round((seconds % 3600) / 60);
  if (hours > 0) return t("quality.hoursMinutes", { hours, minutes });
  if (seconds >= 60) return t("quality.minutes", { minutes: Math.round(seconds / 60) });
  return t("quality.seconds", { seconds: Math.round(seconds) });
}

/** "16" or "16–22". */
function span(low: number, high: number): string {
  return low === high ? String(low) : `${low}–${high}`;
}

/**
 * Auto's likely cost as this browser sees it: the server's figure (from the
 * Downlink client hint, or a slow mobile link assumed) until the page has
 * hydrated, then from what the device reports of its link and what it played
 * before, when it knows more than the server did.
 */
function useAutoCost(choices: Choices, av1: boolean): CostEstimate | null {
  // Worked out in the same render as the family it is for (never one render late: the AV1 note never sits
  // beside H.264's figures); the device's own readings only once hydrated, as the server cannot know them.
  const hydrated = useHydrated();
  return useMemo(() => {
    if (!hydrated) return choices.autoCost;
    // Auto climbs within the family it plays: the AV1 rungs alone when it plays AV1.
    const family = av1 && choices.av1 ? choices.av1.rungs : choices.rungs;
    const seen = estimateAutoCost(family, { linkKbps: reportedLinkKbps(), playedRungs: playedRungs() });
    return seen && !(seen.basis === "assumed" && choices.autoCost?.basis === "link") ? seen : choices.autoCost;
  }, [hydrated, choices.rungs, choices.av1, choices.autoCost, av1]);
}

/**
 * Under the title, always in sight: what the film will cost before play is
 * pressed (Auto: the likely range for this connection, per film and per
 * hour, and the most it can cost; a chosen quality: its exact size), the
 * rung now playing, and what this viewing has spent so far.
 */
export function PlaybackCost({
  durationSeconds,
  choices: rendered,
  quality,
  playingRung,
  spentBytes,
}: {
  durationSeconds: number;
  choices: Choices;
  quality: PlayerQuality;
  playingRung: number | null;
  spentBytes: number;
}) {
  const { t } = useTranslation("watch");
  const { choices, av1 } = useChoicesAsPlayed(rendered);
  const auto = useAutoCost(choices, av1);
  if (choices.rungs.length === 0) return null;
  const length = formatLength(durationSeconds, t);
  const top = choices.rungs[choices.rungs.length - 1];
  const chosen = quality === "auto" ? null : choices.rungs.find((rung) => rung.rung === quality);

  return (
    <div className="mt-3 grid gap-1 text-sm" data-testid="playback-cost">
      {chosen ? (
        <p
          data-testid="data-cost"
          data-megabytes={chosen.megabytes}
          data-megabytes-per-hour-low={chosen.megabytesPerHour}
          data-megabytes-per-hour-high={chosen.megabytesPerHour}
        >
          {t("quality.cost", {
            megabytes: chosen.megabytes,
            rung: chosen.rung,
            length,
            perHour: chosen.megabytesPerHour,
          })}
        </p>
      ) : auto ? (
        <>
          <p
            data-testid="data-cost"
            data-basis={auto.basis}
            data-megabytes={auto.high.megabytes}
            data-megabytes-low={auto.low.megabytes}
            data-megabytes-per-hour-low={auto.low.megabytesPerHour}
            data-megabytes-per-hour-high={auto.high.megabytesPerHour}
          >
            {t("quality.costAuto", {
              megabytes: span(auto.low.megabytes, auto.high.megabytes),
              length,
              perHour: span(auto.low.megabytesPerHour, auto.high.megabytesPerHour),
              rungs: auto.low.rung === auto.high.rung ? `${auto.low.rung}p` : `${auto.low.rung}p–${auto.high.rung}p`,
              basis: t(`quality.basis.${auto.basis}`),
            })}
          </p>
          {top.rung > auto.high.rung ? (
            <p className="text-xs text-slate-400" data-testid="data-cost-ceiling">
              {t("quality.costCeiling", { megabytes: top.megabytes, rung: top.rung })}
            </p>
          ) : null}
        </>
      ) : null}
      {av1 ? (
        <p className="text-xs text-slate-400" data-testid="data-cost-av1">
          {t("quality.av1")}
        </p>
      ) : null}
      <p aria-live="polite" className="text-xs text-slate-400" data-testid="playing-rung">
        {playingRung ? t("quality.playingAt", { rung: playingRung }) : "\u00a0"}
      </p>
      {spentBytes > 0 ? (
        <p className="text-xs text-slate-300" data-testid="data-spent" data-bytes={spentBytes}>
          {t("quality.spent", { megabytes: megabytesOf(spentBytes) })}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The quality menu (Auto and each rung the viewer may play, with MB per hour
 * from the real files) and the data saver switch, with what an hour costs
 * under it. Without JavaScript the menu is a GET form (`?quality=`) and the
 * switch a POST form.
 */
export function PlaybackChoices({
  movieId,
  choices: rendered,
  quality,
  onQualityChange,
}: {
  movieId: string;
  choices: Choices;
  quality: PlayerQuality;
  onQualityChange: (quality: PlayerQuality) => void;
}) {
  const { t } = useTranslation("watch");
  const location = useLocation();
  const selectId = useId();
  const hydrated = useHydrated();
  const { choices } = useChoicesAsPlayed(rendered);
  if (choices.rungs.length === 0) return null;

  const top = choices.rungs[choices.rungs.length - 1];
  const saverRung = choices.rungs.filter((rung) => rung.rung <= DATA_SAVER_MAX_RUNG).at(-1) ?? choices.rungs[0];
  const here = `${location.pathname}${location.search}`;

  return (
    // A grid on a phone: a long option (Hausa's are) or sentence wraps or narrows instead of widening the page.
    <div className="grid gap-4 text-sm sm:grid-cols-2 sm:items-end" data-testid="playback-choices">
      <form
        method="get"
        action="/WatchMovie"
        className="flex min-w-0 items-end gap-2"
        onSubmit={(event) => event.preventDefault()}
      >
        <input type="hidden" name="id" value={movieId} />
        <div className="grid min-w-0 flex-1 gap-1">
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
            className="w-full min-w-0 rounded border border-white/15 bg-ink-900 px-2 py-1.5 text-slate-50"
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
        className="grid min-w-0 gap-1"
        data-testid="data-saver"
        // The menu changes ?quality= without a navigation: come back to the address as it is now.
        onSubmit={(event) => {
          const field = event.currentTarget.elements.namedItem("redirectTo");
          if (field instanceof HTMLInputElement) field.value = `${window.location.pathname}${window.location.search}`;
        }}
      >
        <input type="hidden" name="redirectTo" value={here} />
        <input type="hidden" name="dataSaver" value={choices.dataSaver ? "off" : "on"} />
        <p
          className="text-xs text-slate-400"
          data-testid="data-saver-cost"
          data-megabytes-per-hour={saverRung.megabytesPerHour}
        >
          {choices.dataSaver
            ? t("dataSaver.onCost", { perHour: saverRung.megabytesPerHour })
            : t("dataSaver.offCost", { perHour: saverRung.megabytesPerHour })}
        </p>
        <button
          type="submit"
          aria-pressed={choices.dataSaver}
          className="justify-self-start rounded border border-white/20 px-3 py-1.5 hover:bg-white/5"
          data-testid="data-saver-toggle"
        >
          {choices.dataSaver ? t("dataSaver.turnOff") : t("dataSaver.turnOn")}
        </button>
      </Form>
    </div>
  );
}
