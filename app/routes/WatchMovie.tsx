import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { byProfile } from "~/services/profiles.server";
import { metaTitleMeta } from "~/utils/meta";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from "react";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useTranslation } from "~/i18n/use-translation";
import { refuseToChildren, requireViewer } from "~/auth/guards.server";
import { findOwnTitleForPreview } from "~/services/title-preview.server";
import { getDeviceId } from "~/auth/session.server";
import { NeedsPassPanel, ScreensPanel } from "~/components/billing/playback-panels";
import { MovieCard, Rating } from "~/components/catalogue/movie-card";
import { AdaptivePlayer } from "~/components/watch/adaptive-player";
import { PlaybackChoices, PlaybackCost } from "~/components/watch/playback-choices";
import { rememberSubtitleChoice, SubtitleChoices } from "~/components/watch/subtitle-choices";
import { NextEpisodeCard, NextEpisodeLink } from "~/components/series/next-episode";
import { FormError, SubmitButton, useErrorToasts, type FormErrors } from "~/components/ui/form";
import { getDb } from "~/db/client.server";
import { getEnv } from "~/utils/env.server";
import { getRequestT } from "~/i18n/translate.server";
import { decideWatchAccess } from "~/services/billing.server";
import { isDataSaverOn, readSubtitleChoice } from "~/routes-support/preferences.server";
import { downloadOptions, downloadRulesFor } from "~/services/downloads.server";
import { playerChoices, stopOtherDevices, type PlayerQuality } from "~/services/playback.server";
import { clientAddress } from "~/utils/client.server";
import { consumeRateLimit } from "~/services/rate-limit.server";
import { addToSavedList, removeFromSavedList } from "~/services/saved-lists.server";
import { chosenTrack, listSubtitles } from "~/services/subtitles.server";
import { addComment, deleteComment, getWatchPage, rateMovie } from "~/services/watching.server";
import { isPublishedForGrownUps } from "~/services/catalogue.server";
import { COMMENT_MAX_LENGTH } from "~/utils/form-limits";
import { posterFormatFor } from "~/media/poster-sizes";
import { downlinkHintKbps } from "~/media/data-cost";
import { bucketIsDown, isTitleInBucket, objectStore } from "~/media/media-store.server";
import { autoplayOnDataSaver, getEpisodeContext } from "~/services/series-viewing.server";
import { startsNextByItself } from "~/services/series.server";
import { redirectWithToast } from "~/utils/toast.server";
import { dateFormatter } from "~/utils/dates";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

type ShownParts = {
  series?: unknown;
  access?: { kind?: string };
  subtitles?: { tracks?: readonly unknown[] };
  downloadOffers?: readonly unknown[];
} | null;

export const handle: TranslationHandle = {
  i18n: ["pages", "watch", "billing", "downloads", "series", "subtitles"],
  // Only what the page shows: series texts for an episode, the plans' periods when a pass is needed
  // (NeedsPassPanel's offers), the subtitles menu when there are subtitles, the download button's texts
  // when it is offered.
  i18nOnlyWhen: {
    series: (data) => Boolean((data as ShownParts)?.series),
    billing: (data) => (data as ShownParts)?.access?.kind === "needsPass",
    subtitles: (data) => ((data as ShownParts)?.subtitles?.tracks?.length ?? 0) > 0,
    downloads: (data) => ((data as ShownParts)?.downloadOffers?.length ?? 0) > 0,
  },
};

export const meta = metaTitleMeta;

function movieIdOf(request: Request): string {
  return (new URL(request.url).searchParams.get("id") ?? "").trim();
}

/** `?quality=360` (the quality menu without JavaScript), else Auto. */
function qualityOf(request: Request): PlayerQuality {
  const value = new URL(request.url).searchParams.get("quality") ?? "";
  return /^\d{2,4}$/.test(value) ? Number(value) : "auto";
}

export async function loader({ request }: LoaderFunctionArgs) {
  // A provider opening their own title (the landing page's Watch Now, an old link) watches it in the studio's preview.
  const toOwnPreview = (account: { id: string; role: string }) => {
    const own = account.role === "provider" && findOwnTitleForPreview(getDb(), movieIdOf(request), account.id);
    if (own) throw redirect(`/provider/movie/${encodeURIComponent(own.id)}/watch`);
  };
  // Asked together, the two share one reading of the session.
  const [viewer, deviceId] = await Promise.all([
    requireViewer(request, { beforeRefusing: toOwnPreview }),
    getDeviceId(request),
  ]);
  const watch = getWatchPage(getDb(), movieIdOf(request), viewer, {
    posterFormat: posterFormatFor(request.headers.get("Accept")),
  });
  if (!watch) {
    // A direct link to a title above PG, from a children's profile: refused, and said why.
    if (viewer.profile.children && isPublishedForGrownUps(getDb(), { movieId: movieIdOf(request) })) refuseToChildren();
    throw data(null, { status: 404 });
  }
  const { t, language } = await getRequestT(request, "watch");
  // The player, or why not: a Premium title the plan in force does not include, or every screen of the plan in use.
  const access = decideWatchAccess(
    getDb(),
    { account: viewer, movieId: watch.movie.id, deviceId },
    { language, currency: getEnv().currency },
  );
  // The qualities this viewer may play, what each costs, and data saver.
  const dataSaver = await isDataSaverOn(request, viewer);
  const player = playerChoices(getDb(), {
    movieId: watch.movie.id,
    mediaVersion: watch.movie.mediaVersion,
    account: viewer,
    dataSaver,
    quality: qualityOf(request),
    linkKbps: downlinkHintKbps(request.headers.get("Downlink")),
  });
  // Offline downloads: offered when the plan allows them and the title may be played here.
  const downloadOffers =
    access.kind === "play" && downloadRulesFor(getDb(), viewer).allowed
      ? downloadOptions(getDb(), viewer, watch.movie.id)
      : [];
  // Subtitles: every language of the title, and the one this browser chose (none until it chooses).
  const tracks = listSubtitles(getDb(), watch.movie.id).map(({ language, label, url }) => ({ language, label, url }));
  const subtitles = { tracks, chosen: chosenTrack(tracks, await readSubtitleChoice(request)) };
  // An episode: its series, season and number, and what comes next (the end card).
  const episode = getEpisodeContext(getDb(), watch.movie.id);
  const autoplayChosen = episode ? autoplayOnDataSaver(getDb(), viewer.id) : false;
  const series = episode
    ? {
        ...episode,
        autoplayOnDataSaver: autoplayChosen,
        startsNextByItself: startsNextByItself(dataSaver, autoplayChosen),
      }
    : null;
  const shownName = episode ? `${episode.seriesName} — ${episode.code} ${watch.movie.name}` : watch.movie.name;
  return {
    metaTitle: t("page.metaTitle", { name: shownName }),
    ...watch,
    access,
    player,
    downloadOffers,
    subtitles,
    series,
    // Its film is held in the media bucket and the bucket is not answering: the page says so above the player
    // (a box with no bucket asks nothing more).
    unreachable:
      access.kind === "play" &&
      objectStore() !== null &&
      isTitleInBucket(getDb(), watch.movie.id) &&
      (await bucketIsDown()),
    // Started by the previous episode's end card.
    autoStart: new URL(request.url).searchParams.get("autoplay") === "1",
  };
}

type ActionErrors = FormErrors & { section?: "comments" | "rating" };

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireViewer(request);
  const movieId = movieIdOf(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const db = getDb();
  const back = (section: string) => `/WatchMovie?${new URLSearchParams({ id: movieId })}#${section}`;
  const unavailable = () =>
    redirectWithToast(back("about"), { type: "error", key: "watch:errors.notAvailable" }, { status: 303 });

  switch (intent) {
    case "comment": {
      const limit = await consumeRateLimit("comment", { address: clientAddress(request), account: viewer.id });
      if (!limit.ok) {
        return data<ActionErrors>(
          { section: "comments", formError: "watch:errors.tooMany", retryAfterSeconds: limit.retryAfterSeconds },
          { status: 429 },
        );
      }
      const result = addComment(db, { movieId, ...byProfile(viewer), body: form.get("body") });
      if (!result.ok && "fieldErrors" in result)
        return data<ActionErrors>({ section: "comments", fieldErrors: result.fieldErrors }, { status: 400 });
      if (!result.ok) return unavailable();
      return redirectWithToast(back("comments"), { type: "success", key: "watch:comments.posted" }, { status: 303 });
    }
    case "deleteComment": {
      const outcome = deleteComment(db, String(form.get("commentId") ?? ""), viewer);
      if (outcome === "forbidden") throw data(null, { status: 403 });
      const key = outcome === "deleted" ? "watch:comments.deleted" : "watch:comments.missing";
      return redirectWithToast(
        back("comments"),
        { type: outcome === "deleted" ? "success" : "error", key },
        { status: 303 },
      );
    }
    case "rate": {
      const outcome = rateMovie(db, { movieId, ...byProfile(viewer), stars: form.get("stars") });
      if (outcome === "invalid")
        return data<ActionErrors>(
          { section: "rating", fieldErrors: { stars: ["watch:errors.ratingInvalid"] } },
          { status: 400 },
        );
      if (outcome === "notFound") return unavailable();
      return redirectWithToast(back("rating"), { type: "success", key: "watch:rating.saved" }, { status: 303 });
    }
    case "addWatchLater":
    case "addSaved": {
      const list = intent === "addSaved" ? "saved" : "watch_later";
      if (!addToSavedList(db, viewer, movieId, list)) return unavailable();
      return redirectWithToast(
        back("lists"),
        { type: "success", key: list === "saved" ? "watch:lists.savedAdded" : "watch:lists.watchLaterAdded" },
        { status: 303 },
      );
    }
    case "removeWatchLater":
    case "removeSaved": {
      const list = intent === "removeSaved" ? "saved" : "watch_later";
      removeFromSavedList(db, viewer, movieId, list);
      return redirectWithToast(
        back("lists"),
        { type: "success", key: list === "saved" ? "watch:lists.savedRemoved" : "watch:lists.watchLaterRemoved" },
        { status: 303 },
      );
    }
    case "stopOtherDevices": {
      const deviceId = (await getDeviceId(request)) ?? `account:${viewer.id}`;
      stopOtherDevices(db, { account: viewer, deviceId, movieId });
      return redirectWithToast(
        `/WatchMovie?${new URLSearchParams({ id: movieId })}`,
        { type: "success", key: "watch:pass.stopped" },
        { status: 303 },
      );
    }
    default:
      return data<ActionErrors>({ formError: "watch:errors.unknownAction" }, { status: 400 });
  }
}

const SECTIONS = ["about", "cast", "comments", "provider"] as const;

/** The Download button and the downloader behind it: JavaScript only, so fetched once the page has hydrated. */
const DownloadButton = lazy(() =>
  import("~/components/downloads/download-button.client").then((module) => ({ default: module.DownloadButton })),
);

export default function WatchMovie() {
  const { t, i18n } = useTranslation("watch");
  const hydrated = useHydrated();
  const watch = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionErrors | undefined;
  useErrorToasts(actionData);
  const { movie } = watch;
  const formAction = `/WatchMovie?${new URLSearchParams({ id: movie.id })}`;
  const commentId = useId();
  const commentErrors = actionData?.section === "comments" ? actionData.fieldErrors?.body : undefined;
  const ratingErrors = actionData?.section === "rating" ? actionData.fieldErrors?.stars : undefined;
  // With JavaScript the quality menu switches the playing stream in place; without, it reloads the page (?quality=).
  const [quality, setQuality] = useState<PlayerQuality>(watch.player.quality);
  // New loader data (data saver switched, another title): the menu follows what the page now plays.
  useEffect(() => setQuality(watch.player.quality), [watch.player.quality, watch.player.masterUrl]);
  const [playingRung, setPlayingRung] = useState<number | null>(null);
  // With JavaScript the subtitles menu switches the track in place; without, it posts the choice and reloads.
  const [subtitleLanguage, setSubtitleLanguage] = useState<string | null>(watch.subtitles.chosen);
  useEffect(() => setSubtitleLanguage(watch.subtitles.chosen), [watch.subtitles.chosen]);
  const dateFormat = dateFormatter(i18n.language, "dateTime");
  const { t: tSeries } = useTranslation("series");
  // The episode played to its end: the next one's card (JavaScript only; without, the link under the player).
  const [ended, setEnded] = useState(false);
  useEffect(() => setEnded(false), [movie.id]);
  const next = watch.series?.next ?? null;
  // What the player fetched so far (it counts); the settings panel opened once (the downloader loads then).
  const [spentBytes, setSpentBytes] = useState(0);
  useEffect(() => setSpentBytes(0), [movie.id]);
  const [settingsOpened, setSettingsOpened] = useState(false);
  const playable = watch.access.kind === "play";
  // The player's Download button: the settings under the player open on the downloader.
  const settingsRef = useRef<HTMLDetailsElement>(null);
  const openDownloads = useCallback(() => {
    const settings = settingsRef.current;
    if (!settings) return;
    settings.open = true;
    setSettingsOpened(true);
    settings.scrollIntoView({ block: "start", behavior: "smooth" });
  }, []);

  return (
    <article className="mx-auto w-full max-w-6xl px-4 py-4 sm:py-8">
      {watch.unreachable ? (
        <div role="alert" className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-900">
          <p className="font-semibold">{t("unreachable.title")}</p>
          <p className="text-sm">{t("unreachable.body")}</p>
        </div>
      ) : null}
      {watch.access.kind === "needsPass" ? (
        <NeedsPassPanel movieName={movie.name} plans={watch.access.plans} />
      ) : watch.access.kind === "screens" ? (
        <ScreensPanel screens={watch.access.screens} formAction={formAction} />
      ) : (
        <div className="relative">
          <AdaptivePlayer
            key={movie.id}
            movieId={movie.id}
            masterUrl={watch.player.rungs.length > 0 ? watch.player.masterUrl : null}
            fallbackUrl={watch.player.rungs.length > 0 ? watch.player.fallbackUrl : movie.videoUrl}
            rungs={watch.player.rungs}
            av1Codecs={watch.player.av1?.codecs ?? null}
            quality={quality}
            streamQuality={watch.player.quality}
            poster={movie.playerPoster}
            resumeSeconds={watch.resumeSeconds}
            durationSeconds={movie.durationSeconds}
            dataSaver={watch.player.dataSaver}
            label={t("page.playerLabel", { name: movie.name })}
            onRungChange={setPlayingRung}
            subtitles={watch.subtitles.tracks}
            subtitleLanguage={subtitleLanguage}
            onSubtitleLanguageChange={(language) => {
              setSubtitleLanguage(language);
              rememberSubtitleChoice(language);
            }}
            renderRefused={(refusal) =>
              refusal.reason === "screens" ? (
                <ScreensPanel screens={refusal.screens} formAction={formAction} reloadDocument />
              ) : (
                <NeedsPassPanel movieName={movie.name} plans={[]} />
              )
            }
            autoStart={watch.autoStart}
            onEnded={next ? () => setEnded(true) : undefined}
            onSpentChange={setSpentBytes}
            onDownload={playable && watch.downloadOffers.length > 0 ? openDownloads : undefined}
          />
          {ended && next && watch.series ? (
            <NextEpisodeCard
              key={next.id}
              next={next}
              startsByItself={watch.series.startsNextByItself}
              onClose={() => setEnded(false)}
            />
          ) : null}
        </div>
      )}
      {watch.series ? (
        <NextEpisodeLink
          next={next}
          dataSaver={watch.player.dataSaver}
          autoplayOnDataSaver={watch.series.autoplayOnDataSaver}
        />
      ) : null}
      {/* On a phone the title and play come first; the settings are folded below them (a <details>, so without JavaScript too). */}
      <header className="mt-4 flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div>
          {watch.series ? (
            <p className="text-sm text-slate-300" data-testid="episode-of">
              <Link
                to={`/series/${encodeURIComponent(watch.series.seriesId)}`}
                className="font-semibold text-brand-300 hover:underline"
              >
                {watch.series.seriesName}
              </Link>{" "}
              ·{" "}
              {tSeries("watch.seasonEpisode", {
                season: watch.series.seasonNumber,
                episode: watch.series.episodeNumber,
              })}
            </p>
          ) : null}
          <h1 className="text-2xl font-bold break-words sm:text-3xl">{movie.name}</h1>
          <p className="mt-1 text-sm text-slate-300">{movie.categoryName}</p>
          <Rating average={watch.averageRating} count={watch.ratingCount} className="mt-2" />
        </div>
        <div id="lists" className="flex flex-wrap gap-2">
          <Form method="post" action={formAction}>
            <SubmitButton
              intent={watch.onWatchLater ? "removeWatchLater" : "addWatchLater"}
              pendingText="…"
              className="rounded border border-white/20 px-4 py-2 text-sm hover:bg-white/5"
            >
              {watch.onWatchLater ? t("lists.removeWatchLater") : t("lists.addWatchLater")}
            </SubmitButton>
          </Form>
          <Form method="post" action={formAction}>
            <SubmitButton
              intent={watch.onSaved ? "removeSaved" : "addSaved"}
              pendingText="…"
              className="rounded border border-white/20 px-4 py-2 text-sm hover:bg-white/5"
            >
              {watch.onSaved ? t("lists.removeSaved") : t("lists.addSaved")}
            </SubmitButton>
          </Form>
        </div>
      </header>

      {playable ? (
        <PlaybackCost
          durationSeconds={movie.durationSeconds}
          choices={watch.player}
          quality={quality}
          playingRung={playingRung}
          spentBytes={spentBytes}
        />
      ) : null}
      {playable ? (
        <details
          ref={settingsRef}
          className="mt-3 rounded-lg border border-white/10 bg-ink-900/40"
          data-testid="playback-settings"
          onToggle={(event) => {
            if (event.currentTarget.open) setSettingsOpened(true);
          }}
        >
          <summary className="cursor-pointer px-3 py-2 text-sm">
            <span className="font-semibold">{t("settings.title")}</span>{" "}
            <span className="text-xs text-slate-400">
              {t(watch.player.dataSaver ? "settings.stateOn" : "settings.stateOff", {
                quality: quality === "auto" ? t("settings.auto") : `${quality}p`,
              })}
            </span>
          </summary>
          <div className="grid gap-3 px-3 pb-3">
            <PlaybackChoices movieId={movie.id} choices={watch.player} quality={quality} onQualityChange={setQuality} />
            <SubtitleChoices
              tracks={watch.subtitles.tracks}
              language={subtitleLanguage}
              onLanguageChange={setSubtitleLanguage}
            />
            {hydrated && settingsOpened && watch.downloadOffers.length > 0 ? (
              <Suspense fallback={null}>
                <DownloadButton
                  movieId={movie.id}
                  offers={watch.downloadOffers}
                  av1Codecs={watch.player.av1?.codecs ?? null}
                  subtitleLanguage={subtitleLanguage}
                />
              </Suspense>
            ) : null}
          </div>
        </details>
      ) : null}

      <Form method="post" action={formAction} id="rating" className="mt-4">
        <fieldset aria-describedby={ratingErrors ? "rating-error" : undefined}>
          <legend className="text-sm font-semibold">{t("rating.legend")}</legend>
          {watch.myRating ? (
            <p className="text-xs text-slate-400">{t("rating.yours", { stars: watch.myRating })}</p>
          ) : null}
          <div className="mt-2 flex flex-wrap items-center gap-3">
            {[1, 2, 3, 4, 5].map((stars) => (
              <label key={stars} className="flex items-center gap-1 text-sm">
                <input type="radio" name="stars" value={stars} defaultChecked={watch.myRating === stars} required />
                {t("rating.star", { count: stars })}
              </label>
            ))}
            <SubmitButton
              intent="rate"
              pendingText={t("rating.submitting")}
              className="rounded bg-brand-600 px-4 py-1.5 text-sm font-semibold text-white hover:bg-brand-700"
            >
              {t("rating.submit")}
            </SubmitButton>
          </div>
          {ratingErrors ? (
            <p id="rating-error" className="mt-1 text-sm text-red-300" data-field-error="stars">
              {t(ratingErrors[0])}
            </p>
          ) : null}
        </fieldset>
      </Form>

      <nav aria-label={t("page.tabsLabel")} className="mt-8 border-b border-white/10">
        <ul className="flex flex-wrap gap-1 text-sm">
          {SECTIONS.map((section) => (
            <li key={section}>
              <a href={`#${section}`} className="inline-block rounded-t px-4 py-2 hover:bg-white/5">
                {t(`page.${section}`)}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      <section id="about" aria-labelledby="about-title" className="mt-6 scroll-mt-20">
        <h2 id="about-title" className="text-xl font-semibold">
          {t("page.about")}
        </h2>
        <p className="mt-2 whitespace-pre-line text-slate-200">{movie.description || t("page.noDescription")}</p>
      </section>

      <section id="cast" aria-labelledby="cast-title" className="mt-8 scroll-mt-20">
        <h2 id="cast-title" className="text-xl font-semibold">
          {t("page.cast")}
        </h2>
        <p className="mt-2 whitespace-pre-line text-slate-200">{movie.cast || t("page.noCast")}</p>
      </section>

      <section id="comments" aria-labelledby="comments-title" className="mt-8 scroll-mt-20">
        <h2 id="comments-title" className="text-xl font-semibold">
          {t("page.comments")}
        </h2>
        <Form method="post" action={formAction} className="mt-3 grid max-w-2xl gap-2">
          {actionData?.section === "comments" ? <FormError errors={actionData} /> : null}
          <label htmlFor={commentId} className="text-sm font-medium text-slate-200">
            {t("comments.label")}
          </label>
          <textarea
            id={commentId}
            name="body"
            rows={3}
            maxLength={COMMENT_MAX_LENGTH}
            aria-invalid={commentErrors ? true : undefined}
            aria-describedby={`${commentId}-hint${commentErrors ? ` ${commentId}-error` : ""}`}
            className={`rounded border bg-ink-900 px-3 py-2 text-slate-50 focus:ring-2 focus:ring-brand-500 focus:outline-none ${commentErrors ? "border-red-400" : "border-white/15"}`}
          />
          <p id={`${commentId}-hint`} className="text-xs text-slate-400">
            {t("comments.hint")}
          </p>
          {commentErrors ? (
            <ul id={`${commentId}-error`} className="text-sm text-red-300" data-field-error="body">
              {commentErrors.map((message) => (
                <li key={message}>{t(message)}</li>
              ))}
            </ul>
          ) : null}
          <div>
            <SubmitButton intent="comment" pendingText={t("comments.sending")}>
              {t("comments.send")}
            </SubmitButton>
          </div>
        </Form>
        {watch.comments.length === 0 ? (
          <p className="mt-4 text-slate-400">{t("comments.empty")}</p>
        ) : (
          <ol className="mt-4 grid gap-3" data-testid="comments">
            {watch.comments.map((comment) => (
              <li
                key={comment.id}
                data-comment-id={comment.id}
                className="rounded-lg border border-white/10 bg-ink-900/60 p-4"
              >
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <p className="text-sm">
                    <span className="font-semibold">{comment.authorName}</span>{" "}
                    <time dateTime={comment.createdAt} className="text-slate-400">
                      {dateFormat.format(new Date(comment.createdAt))}
                    </time>
                  </p>
                  {comment.canDelete ? (
                    <Form method="post" action={formAction}>
                      <input type="hidden" name="commentId" value={comment.id} />
                      <button
                        type="submit"
                        name="intent"
                        value="deleteComment"
                        aria-label={t("comments.deleteLabel", { name: comment.authorName })}
                        className="text-sm text-red-300 hover:underline"
                      >
                        {t("comments.delete")}
                      </button>
                    </Form>
                  ) : null}
                </div>
                <p className="mt-2 break-words whitespace-pre-line text-slate-100">{comment.body}</p>
              </li>
            ))}
          </ol>
        )}
      </section>

      <section id="provider" aria-labelledby="provider-title" className="mt-8 scroll-mt-20">
        <h2 id="provider-title" className="text-xl font-semibold">
          {t("page.provider")}
        </h2>
        <p className="mt-2 text-slate-200">{t("page.providerBy", { name: movie.providerName })}</p>
        <h3 className="mt-4 font-semibold">{t("page.providerOther", { name: movie.providerName })}</h3>
        <CardRow movies={watch.providerTitles} empty={t("page.providerNone")} testId="provider-titles" />
      </section>

      <section id="related" aria-labelledby="related-title" className="mt-10">
        <h2 id="related-title" className="text-xl font-semibold">
          {t("page.related")}
        </h2>
        <CardRow movies={watch.related} empty={t("page.relatedNone")} testId="related-titles" />
      </section>
    </article>
  );
}

function CardRow({
  movies,
  empty,
  testId,
}: {
  movies: ReturnType<typeof useLoaderData<typeof loader>>["related"];
  empty: string;
  testId: string;
}) {
  if (movies.length === 0) return <p className="mt-2 text-slate-400">{empty}</p>;
  return (
    <ul className="mt-3 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4" data-testid={testId}>
      {movies.map((movie) => (
        <li key={movie.id} data-movie-id={movie.id}>
          {/* Far below the player on a phone: a first visit spends its data on what is in sight, and the film. */}
          <MovieCard movie={movie} nearOnly />
        </li>
      ))}
    </ul>
  );
}
