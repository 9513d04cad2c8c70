import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { data } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { PosterThumbnail } from "~/components/library/library-row";
import { useTranslation } from "~/i18n/use-translation";
import { refuseToChildren, requireViewer } from "~/auth/guards.server";
import { Poster, Rating } from "~/components/catalogue/movie-card";
import { WatchProgress } from "~/components/library/watch-progress";
import { loadAfterPlayingSaved, watchedPercent } from "~/utils/watch-time";
import { EpisodeClock } from "~/components/series/episode-clock";
import { SubmitButton } from "~/components/ui/form";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { chooseSeason, dropSeriesFromList, getSeriesPage, keepSeriesOnList } from "~/services/series-viewing.server";
import { isPublishedForGrownUps } from "~/services/catalogue.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["series", "pages"] };

export const meta = metaTitleMeta;

/**
 * /series/<id>: a series' episodes one season at a time (`?season=N`; by
 * default the season of the episode Continue opens), with what this viewer
 * watched and how far, and "Continue" (the next episode to watch, where they
 * stopped). The seasons are tabs that are links; every link and form works
 * without JavaScript.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request);
  const page = getSeriesPage(getDb(), params.id ?? "", viewer);
  if (!page) {
    if (viewer.profile.children && isPublishedForGrownUps(getDb(), { seriesId: params.id ?? "" })) refuseToChildren();
    throw data(null, { status: 404 });
  }
  const { t } = await getRequestT(request, "series");
  const { seasons, ...rest } = page;
  // Only the season shown travels: the others are a tab (a link) away.
  const season = chooseSeason(page, seasonAsked(new URL(request.url)));
  const seasonNumbers = seasons.map((each) => each.number);
  return { metaTitle: t("page.metaTitle", { name: page.series.name }), ...rest, seasonNumbers, season };
}

/** Leaving a playing film for this page: its position is saved before this page reads it. */
export const clientLoader = loadAfterPlayingSaved;

/** `?season=2`: a season number, or null for anything else (the page then picks one). */
function seasonAsked(url: URL): number | null {
  const value = url.searchParams.get("season");
  return value && /^\d{1,4}$/.test(value) ? Number(value) : null;
}

const LIST_INTENTS = {
  addWatchLater: { list: "watch_later", add: true, toast: "series:lists.watchLaterAdded" },
  removeWatchLater: { list: "watch_later", add: false, toast: "series:lists.watchLaterRemoved" },
  addSaved: { list: "saved", add: true, toast: "series:lists.savedAdded" },
  removeSaved: { list: "saved", add: false, toast: "series:lists.savedRemoved" },
} as const;

export async function action({ request, params }: ActionFunctionArgs) {
  const viewer = await requireViewer(request);
  const seriesId = params.id ?? "";
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const back = `/series/${encodeURIComponent(seriesId)}#lists`;
  if (!Object.hasOwn(LIST_INTENTS, intent)) throw data(null, { status: 400, statusText: "Unknown action" });
  const chosen = LIST_INTENTS[intent as keyof typeof LIST_INTENTS];
  const db = getDb();
  if (chosen.add) {
    if (!keepSeriesOnList(db, viewer, seriesId, chosen.list))
      return redirectWithToast("/movies", { type: "error", key: "series:errors.seriesMissing" }, { status: 303 });
  } else dropSeriesFromList(db, viewer, seriesId, chosen.list);
  return redirectWithToast(back, { type: "success", key: chosen.toast }, { status: 303 });
}

export default function SeriesPage() {
  const { t } = useTranslation("series");
  const page = useLoaderData<typeof loader>();
  const { series, continueWith, season } = page;
  const seriesPath = `/series/${encodeURIComponent(series.id)}`;
  const continueLabel = continueWith
    ? t(`page.continue.${continueWith.reason}`, {
        code: continueWith.episode.code,
        name: continueWith.episode.name,
      })
    : null;

  return (
    <article className="mx-auto w-full max-w-6xl px-4 py-8" data-series-id={series.id}>
      <header className="relative isolate overflow-hidden rounded-xl bg-ink-900">
        <div className="absolute inset-0 -z-10">
          <Poster owner={series.poster} variant="hero" width={1280} height={720} eager highPriority fill />
        </div>
        <div className="absolute inset-0 -z-10 bg-gradient-to-t from-ink-950 via-ink-950/70 to-transparent sm:bg-gradient-to-r sm:from-ink-950/95 sm:via-ink-950/70" />
        <div className="flex min-h-72 max-w-2xl flex-col justify-end gap-3 p-5 sm:p-10">
          <p className="text-xs font-semibold tracking-widest text-brand-300 uppercase">
            {t("page.kind")} · {series.categoryName}
            {series.access === "premium" ? (
              <span className="ml-2 rounded bg-brand-600 px-1.5 py-0.5 text-white">{t("page.premium")}</span>
            ) : null}
          </p>
          <h1 className="text-3xl leading-tight font-extrabold text-white sm:text-5xl">{series.name}</h1>
          <p className="text-sm text-slate-200">
            {t("page.seasonCount", { count: page.seasonNumbers.length })} ·{" "}
            {t("page.episodeCount", { count: page.episodeCount })} · {t("page.by", { name: series.providerName })}
          </p>
          <Rating average={page.averageRating} count={page.ratingCount} className="text-sm" />
          {continueWith ? (
            <div className="mt-2 flex flex-wrap items-center gap-3">
              <Link
                to={continueWith.episode.href}
                data-testid="continue"
                data-episode-id={continueWith.episode.id}
                data-position={continueWith.positionSeconds}
                className="inline-flex items-center gap-2 rounded-md bg-brand-500 px-5 py-2.5 text-sm font-bold text-ink-950 shadow-lg shadow-brand-900/30 hover:bg-brand-400"
              >
                <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" fill="currentColor">
                  <path d="M8 5.5v13a1 1 0 0 0 1.5.86l10.5-6.5a1 1 0 0 0 0-1.72L9.5 4.64A1 1 0 0 0 8 5.5z" />
                </svg>
                {continueLabel}
              </Link>
              {continueWith.reason === "resume" && continueWith.positionSeconds > 0 ? (
                <span className="text-sm text-slate-200">
                  {t("page.resumeAt")} <EpisodeClock seconds={continueWith.positionSeconds} />
                </span>
              ) : null}
            </div>
          ) : null}
        </div>
      </header>

      <div id="lists" className="mt-4 flex flex-wrap gap-2">
        <Form method="post" action={seriesPath}>
          <SubmitButton
            intent={page.lists.watchLater ? "removeWatchLater" : "addWatchLater"}
            pendingText="…"
            className="rounded border border-white/20 px-4 py-2 text-sm hover:bg-white/5"
          >
            {page.lists.watchLater ? t("lists.removeWatchLater") : t("lists.addWatchLater")}
          </SubmitButton>
        </Form>
        <Form method="post" action={seriesPath}>
          <SubmitButton
            intent={page.lists.saved ? "removeSaved" : "addSaved"}
            pendingText="…"
            className="rounded border border-white/20 px-4 py-2 text-sm hover:bg-white/5"
          >
            {page.lists.saved ? t("lists.removeSaved") : t("lists.addSaved")}
          </SubmitButton>
        </Form>
      </div>

      <section aria-labelledby="about-title" className="mt-6 grid gap-4 md:grid-cols-2">
        <div>
          <h2 id="about-title" className="text-xl font-semibold">
            {t("page.about")}
          </h2>
          <p className="mt-2 whitespace-pre-line text-slate-200">{series.description || t("page.noDescription")}</p>
        </div>
        <div>
          <h2 className="text-xl font-semibold">{t("page.cast")}</h2>
          <p className="mt-2 whitespace-pre-line text-slate-200">{series.cast || t("page.noCast")}</p>
          <p className="mt-2 text-xs text-slate-400">{t("page.rateEpisodes")}</p>
        </div>
      </section>

      {page.seasonNumbers.length > 1 ? (
        <nav aria-label={t("page.seasonsNav")} className="mt-8 border-b border-white/10">
          <ul className="flex flex-wrap gap-1 text-sm">
            {page.seasonNumbers.map((tab) => {
              const current = tab === season?.number;
              return (
                <li key={tab}>
                  <Link
                    to={`${seriesPath}?season=${tab}#episodes`}
                    aria-current={current ? "page" : undefined}
                    className={`inline-block rounded-t px-4 py-2 ${current ? "border-b-2 border-brand-400 font-semibold text-white" : "text-slate-300 hover:bg-white/5"}`}
                  >
                    {t("page.season", { number: tab })}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
      ) : null}

      {season ? (
        <section id="episodes" aria-labelledby={`season-${season.number}-title`} className="mt-8 scroll-mt-20">
          <h2 id={`season-${season.number}-title`} className="text-2xl font-semibold">
            {t("page.season", { number: season.number })}
          </h2>
          <ol className="mt-3 grid gap-3" data-testid={`season-${season.number}`}>
            {season.episodes.map((episode) => {
              const percent = episode.finished
                ? 100
                : watchedPercent(episode.positionSeconds ?? 0, episode.durationSeconds);
              return (
                <li
                  key={episode.id}
                  data-episode-id={episode.id}
                  data-finished={episode.finished ? "true" : "false"}
                  className="flex flex-wrap items-center gap-4 rounded-lg border border-white/10 bg-ink-900/60 p-3"
                >
                  <PosterThumbnail to={episode.href} poster={episode.poster} />
                  <div className="min-w-0 flex-1">
                    <h3 className="font-semibold text-slate-50">
                      <Link to={episode.href} className="hover:underline">
                        <span className="text-brand-300">{episode.code}</span> {episode.name}
                      </Link>
                    </h3>
                    {episode.description ? (
                      <p className="mt-0.5 line-clamp-2 text-sm text-slate-300">{episode.description}</p>
                    ) : null}
                    <p className="mt-1 text-xs text-slate-400">
                      <EpisodeClock seconds={episode.durationSeconds} />
                      {episode.access === "premium" ? ` · ${t("page.premium")}` : ""}
                    </p>
                    {episode.positionSeconds !== null ? (
                      <WatchProgress percent={percent} label={t("page.progressLabel", { percent })}>
                        {episode.finished ? (
                          t("page.watched")
                        ) : (
                          <>
                            {t("page.stoppedAt")} <EpisodeClock seconds={episode.positionSeconds} />
                          </>
                        )}
                      </WatchProgress>
                    ) : null}
                  </div>
                  <Link
                    to={episode.href}
                    aria-label={t("page.playLabel", { code: episode.code, name: episode.name })}
                    className="rounded bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700"
                  >
                    {episode.positionSeconds !== null && !episode.finished ? t("page.continueShort") : t("page.play")}
                  </Link>
                </li>
              );
            })}
          </ol>
        </section>
      ) : null}
    </article>
  );
}
