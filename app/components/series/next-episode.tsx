import { Form, useLocation, useNavigate } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/i18n/use-translation";

/** How long the end card counts down before the next episode starts. */
export const NEXT_EPISODE_COUNTDOWN_SECONDS = 10;

export type NextEpisode = { id: string; href: string; name: string; code: string };

/** The address that starts the next episode at once (the watch page's `?autoplay=1`). */
export function autoplayHref(href: string): string {
  return `${href}${href.includes("?") ? "&" : "?"}autoplay=1`;
}

/**
 * Shown over the player when an episode ends (JavaScript only): the next
 * episode, a countdown that starts it, Play now and Cancel. While data saver
 * is on, nothing starts by itself unless the viewer allowed it; the card then
 * offers the episode and that choice.
 */
export function NextEpisodeCard({
  next,
  startsByItself,
  onClose,
}: {
  next: NextEpisode;
  startsByItself: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation("series");
  const navigate = useNavigate();
  const [secondsLeft, setSecondsLeft] = useState(NEXT_EPISODE_COUNTDOWN_SECONDS);
  const [counting, setCounting] = useState(startsByItself);
  const playNow = useRef<HTMLAnchorElement>(null);

  useEffect(() => playNow.current?.focus(), []);
  useEffect(() => {
    if (!counting) return;
    if (secondsLeft <= 0) {
      navigate(autoplayHref(next.href));
      return;
    }
    const timer = window.setTimeout(() => setSecondsLeft((left) => left - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [counting, secondsLeft, navigate, next.href]);

  return (
    <section
      aria-labelledby="next-episode-title"
      data-testid="next-episode-card"
      data-counting={counting ? "true" : "false"}
      className="absolute inset-0 z-10 flex items-center justify-center bg-black/80 p-4"
    >
      <div className="grid max-w-md gap-3 rounded-lg border border-white/15 bg-ink-900/95 p-5 text-center shadow-xl">
        <h2 id="next-episode-title" className="text-sm font-semibold tracking-widest text-brand-300 uppercase">
          {t("next.title")}
        </h2>
        <p className="text-lg font-bold text-white">
          {next.code} · {next.name}
        </p>
        <p className="text-sm text-slate-300" role="status" aria-live="polite" data-testid="next-episode-countdown">
          {counting
            ? t("next.countdown", { count: secondsLeft })
            : startsByItself
              ? t("next.cancelled")
              : t("next.dataSaver")}
        </p>
        <div className="flex flex-wrap justify-center gap-2">
          <Link
            ref={playNow}
            to={autoplayHref(next.href)}
            className="rounded bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
          >
            {t("next.playNow")}
          </Link>
          {counting ? (
            <button
              type="button"
              onClick={() => setCounting(false)}
              className="rounded border border-white/20 px-4 py-2 text-sm text-slate-100 hover:bg-white/10"
            >
              {t("next.cancel")}
            </button>
          ) : (
            <button
              type="button"
              onClick={onClose}
              className="rounded border border-white/20 px-4 py-2 text-sm text-slate-100 hover:bg-white/10"
            >
              {t("next.close")}
            </button>
          )}
        </div>
      </div>
    </section>
  );
}

/**
 * Under an episode's player: the next episode as a plain link (what the end
 * card is without JavaScript), and, while data saver is on, the viewer's
 * choice whether next episodes start by themselves (a POST form).
 */
export function NextEpisodeLink({
  next,
  dataSaver,
  autoplayOnDataSaver,
}: {
  next: NextEpisode | null;
  dataSaver: boolean;
  autoplayOnDataSaver: boolean;
}) {
  const { t } = useTranslation("series");
  const location = useLocation();
  return (
    <div className="mt-3 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-white/10 bg-ink-900/60 p-3 text-sm">
      {next ? (
        <p>
          <span className="text-slate-400">{t("next.title")}: </span>
          <Link to={next.href} className="font-semibold text-brand-300 hover:underline" data-testid="next-episode-link">
            {next.code} · {next.name}
          </Link>
        </p>
      ) : (
        <p className="text-slate-400">{t("next.last")}</p>
      )}
      {dataSaver ? (
        <Form method="post" action="/autoplay-next" className="flex flex-wrap items-center gap-2">
          <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
          <input type="hidden" name="autoplay" value={autoplayOnDataSaver ? "off" : "on"} />
          <span className="text-xs text-slate-300">
            {autoplayOnDataSaver ? t("autoplay.isOn") : t("autoplay.isOff")}
          </span>
          <button type="submit" className="rounded border border-white/20 px-3 py-1 text-xs hover:bg-white/5">
            {autoplayOnDataSaver ? t("autoplay.turnOff") : t("autoplay.turnOn")}
          </button>
        </Form>
      ) : null}
    </div>
  );
}
