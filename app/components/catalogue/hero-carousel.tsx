import { Link } from "~/components/ui/link";
import { useEffect, useState } from "react";
import { useTranslation } from "~/i18n/use-translation";
import type { CatalogueMovie } from "~/services/catalogue.server";
import { Carousel, useSlideNearby } from "./carousel";
import { Poster, Rating } from "./movie-card";

/**
 * The landing page's first screen: one featured title at a time with its hero
 * poster, a short description, Watch Now and Playlist. Playlist is a plain form
 * POST to /watch-later, so it works without JavaScript; signed-out visitors are
 * sent to sign in first by that route.
 */
export function HeroCarousel({ movies, headingId }: { movies: CatalogueMovie[]; headingId: string }) {
  const { t } = useTranslation("pages");
  return (
    <Carousel variant="hero" label={t("home.heroLabel")} labelledBy={headingId}>
      {movies.map((movie, index) => (
        <HeroSlide key={movie.id} movie={movie} eager={index === 0} />
      ))}
    </Carousel>
  );
}

function HeroSlide({ movie, eager }: { movie: CatalogueMovie; eager: boolean }) {
  const { t } = useTranslation("pages");
  const nearby = useSlideNearby();
  const [shown, setShown] = useState(eager);
  useEffect(() => {
    if (nearby) setShown(true);
  }, [nearby]);
  const poster = (
    <Poster owner={movie.poster} variant="hero" width={1280} height={720} eager={eager} highPriority={eager} fill />
  );
  return (
    <article className="relative isolate overflow-hidden rounded-xl bg-ink-900">
      <div className="relative aspect-[4/5] sm:aspect-[16/9] lg:aspect-[21/8]">
        <div className="absolute inset-0 -z-10">
          {/* The first slide's poster at once; the others when the carousel is about to show them (once it
              runs), or as the browser scrolls to them before that (and without JavaScript: Poster). */}
          {shown || nearby === null ? poster : null}
        </div>
        <div className="absolute inset-0 -z-10 bg-gradient-to-t from-ink-950 via-ink-950/60 to-transparent sm:bg-gradient-to-r sm:from-ink-950/95 sm:via-ink-950/60" />
        <div className="flex h-full max-w-2xl flex-col justify-end gap-3 p-5 sm:p-10">
          <p className="text-xs font-semibold tracking-widest text-brand-300 uppercase">
            {movie.categoryName}
            {movie.access === "premium" ? (
              <span className="ml-2 rounded bg-brand-600 px-1.5 py-0.5 text-white">{t("card.premium")}</span>
            ) : null}
          </p>
          <h3 className="text-3xl leading-tight font-extrabold text-white sm:text-5xl">{movie.name}</h3>
          <Rating average={movie.averageRating} count={movie.ratingCount} className="text-sm" />
          {movie.description ? (
            <p className="line-clamp-3 text-sm text-slate-200 sm:text-base">{movie.description}</p>
          ) : null}
          <div className="mt-2 flex flex-wrap items-center gap-3">
            <Link
              to={movie.href}
              className="inline-flex items-center gap-2 rounded-md bg-brand-500 px-5 py-2.5 text-sm font-bold text-ink-950 shadow-lg shadow-brand-900/30 hover:bg-brand-400"
            >
              <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" fill="currentColor">
                <path d="M8 5.5v13a1 1 0 0 0 1.5.86l10.5-6.5a1 1 0 0 0 0-1.72L9.5 4.64A1 1 0 0 0 8 5.5z" />
              </svg>
              {t("home.watchNow")}
            </Link>
            <form method="post" action="/watch-later">
              <input type="hidden" name={movie.kind === "series" ? "seriesId" : "movieId"} value={movie.id} />
              <input type="hidden" name="intent" value="add" />
              <input type="hidden" name="redirectTo" value="/" />
              <button
                type="submit"
                aria-label={t("home.playlistLabel", { name: movie.name })}
                className="inline-flex items-center gap-2 rounded-md border border-white/30 bg-white/10 px-5 py-2.5 text-sm font-semibold text-white backdrop-blur hover:bg-white/20"
              >
                <svg
                  viewBox="0 0 24 24"
                  width="16"
                  height="16"
                  aria-hidden="true"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2.5"
                >
                  <path d="M12 5v14M5 12h14" strokeLinecap="round" />
                </svg>
                {t("home.playlist")}
              </button>
            </form>
          </div>
        </div>
      </div>
    </article>
  );
}
