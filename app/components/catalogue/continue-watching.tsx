import { Form, useLocation, useNavigation } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { clockText, watchedPercent } from "~/utils/watch-time";
import { useTranslation } from "~/i18n/use-translation";
import type { ContinueWatchingItem } from "~/services/continue-watching.server";
import { Poster } from "./movie-card";
import { SectionHeading } from "./movie-row";

const DISMISS_ACTION = "/continue-watching";

/**
 * "Continue watching": the viewer's unfinished films and series, first on the
 * home page and /movies. A row that scrolls inside its box (no JavaScript
 * needed); each entry resumes where they stopped and can be taken out of the
 * row by a plain form (with JavaScript it goes at once, before the answer).
 */
export function ContinueWatchingRow({ items }: { items: ContinueWatchingItem[] }) {
  const { t } = useTranslation("pages");
  // With JavaScript the entry leaves at once, before the answer (which redirects back here with a toast).
  const navigation = useNavigation();
  const leaving = navigation.formAction === DISMISS_ACTION ? navigation.formData?.get("movieId") : null;
  const shown = items.filter((item) => item.viewedMovieId !== leaving);
  if (shown.length === 0) return null;
  return (
    <section
      id="continue-watching"
      aria-labelledby="continue-watching-heading"
      className="mx-auto w-full max-w-7xl px-4 pt-6"
      data-section="continue-watching"
    >
      <SectionHeading id="continue-watching-heading" title={t("continue.title")} />
      <ul className="mt-3 flex snap-x gap-3 overflow-x-auto pb-2" data-testid="continue-watching">
        {shown.map((item) => (
          <li key={item.viewedMovieId} className="w-44 shrink-0 snap-start sm:w-56" data-movie-id={item.movieId}>
            <Entry item={item} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function Entry({ item }: { item: ContinueWatchingItem }) {
  const { t } = useTranslation("pages");
  const location = useLocation();
  const percent = watchedPercent(item.positionSeconds, item.durationSeconds);
  const where =
    item.positionSeconds > 0
      ? t("continue.resumeAt", { time: clockText(item.positionSeconds) })
      : t("continue.nextEpisode");
  return (
    <div className="overflow-hidden rounded-lg border border-white/10 bg-ink-900/60">
      <Link to={item.href} className="group block" aria-label={t("continue.open", { title: item.title, where })}>
        <Poster owner={item.poster} variant="card" sizes="(min-width: 640px) 224px, 176px" width={300} height={200} />
        <div
          role="progressbar"
          aria-label={t("continue.progress", { percent })}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-1 bg-white/10"
        >
          <div className="h-full bg-brand-500" style={{ width: `${percent}%` }} />
        </div>
        <div className="px-3 pt-2">
          <p className="truncate text-sm font-semibold text-white group-hover:text-brand-300">{item.title}</p>
          {item.episodeName ? <p className="truncate text-xs text-slate-300">{item.episodeName}</p> : null}
          <p className="mt-0.5 text-xs text-slate-400">{where}</p>
        </div>
      </Link>
      <Form method="post" action={DISMISS_ACTION} preventScrollReset className="px-3 pt-1 pb-2">
        <input type="hidden" name="movieId" value={item.viewedMovieId} />
        <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
        <button
          type="submit"
          className="-ml-1 rounded px-1 py-1 text-xs text-slate-400 hover:bg-white/5 hover:text-white"
          aria-label={t("continue.removeNamed", { title: item.title })}
        >
          {t("continue.remove")}
        </button>
      </Form>
    </div>
  );
}
