import { useEffect, useRef, useState } from "react";
import { Link } from "~/components/ui/link";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useTranslation } from "~/i18n/use-translation";
import { fixedPosterUrl, posterSrcSet, sizedPosterUrl, type PosterOwner } from "~/media/poster-sizes";
import type { CatalogueCard } from "~/services/catalogue.server";

export function watchHref(movieId: string): string {
  return `/WatchMovie?id=${encodeURIComponent(movieId)}`;
}

/** "1 h 32 min", "7 min", or "8 s" for a title under a minute (never "0 min" nor "1 min" for 8 seconds). */
export function useDuration() {
  const { t } = useTranslation("pages");
  return (seconds: number) => {
    if (seconds <= 0) return null;
    if (seconds < 59.5) return t("card.seconds", { count: Math.max(1, Math.round(seconds)) });
    const totalMinutes = Math.round(seconds / 60);
    const hours = Math.floor(totalMinutes / 60);
    const minutes = totalMinutes % 60;
    return hours > 0 ? t("card.hoursMinutes", { hours, minutes }) : t("card.minutes", { count: totalMinutes });
  };
}

export function Rating({
  average,
  count,
  className = "",
}: {
  average: number | null;
  count: number;
  className?: string;
}) {
  const { t } = useTranslation("pages");
  if (average === null || count === 0) {
    return <p className={`text-xs text-slate-400 ${className}`}>{t("card.noRatings")}</p>;
  }
  const shown = average.toFixed(1);
  // The star is the stylesheet's (.rating-star): a card is drawn dozens of times a page, and an
  // inline SVG was two more elements with five attributes each time.
  return (
    <p className={`flex items-center gap-1 text-xs text-slate-300 ${className}`}>
      <span className="sr-only">{t("card.rating", { average: shown, count })}</span>
      <span aria-hidden="true" className="rating-star font-semibold text-slate-100">
        {shown}
      </span>
      <span aria-hidden="true" className="text-slate-400">
        {t("card.ratingCount", { count })}
      </span>
    </p>
  );
}

/** How wide a card is drawn, for `sizes`: its grid's or carousel's columns at each breakpoint (max-w-7xl pages). */
export const CARD_SIZES = {
  /** 2, 3 and 4 columns (the landing page's sections, related titles). */
  grid: "(min-width: 1280px) 300px, (min-width: 1024px) 25vw, (min-width: 640px) 33vw, 50vw",
  /** 2, 3, 4 and 6 columns (/movies, /moviecategory). */
  wideGrid: "(min-width: 1280px) 200px, (min-width: 1024px) 25vw, (min-width: 640px) 33vw, 50vw",
  /** 1, 2, 3 and 5 slides (carousels). */
  carousel:
    "(min-width: 1280px) 256px, (min-width: 1024px) 20vw, (min-width: 768px) 33vw, (min-width: 400px) 50vw, 100vw",
  /** The 128-px thumbnails of lists (history, watch later). */
  thumbnail: "128px",
} as const;

/** The landing hero: 4:5 on phones (below `sm`), 16:9 (21:8 from `lg`) above, inside the page's padding. */
const HERO_PHONES = "(max-width: 639px)";
const HERO_PHONE_SIZES = "calc(100vw - 32px)";
const HERO_SIZES = "min(calc(100vw - 32px), 1248px)";

/**
 * A title's or a series' poster in the width its box needs: every size of
 * media/poster-sizes.ts in `srcset`, AVIF where the browser takes it, else
 * JPEG (the fixed-size JPEG as `src`, for browsers without srcset). The hero
 * switches to its 4:5 crop on phones. Sized so the page never jumps while it
 * loads; lazy unless `eager`.
 *
 * A poster that is not `eager` waits for the page's script to run: until
 * then the HTML holds a box of its size. On a slow link the images below the
 * first screen would otherwise share it with the scripts the page needs to
 * respond (a phone's browser loads lazy images up to thousands of pixels ahead).
 * Inside the box, for a browser with JavaScript off, `<noscript>` holds one
 * plain JPEG (the 300-px card, the 640-px hero) rather than the whole
 * `<picture>`: every visitor downloads that markup, and the picture's eight
 * addresses were nearly a third of a catalogue page's HTML.
 */
export function Poster({
  owner,
  variant,
  sizes,
  width,
  height,
  eager = false,
  nearOnly = false,
  highPriority = false,
  fill = false,
  className = "",
}: {
  /** Whose poster files to show; null when there is no poster. */
  owner: PosterOwner | null;
  /**
   * Fetched only once the viewer scrolls within a screen of it (rows far down a page a phone may never
   * scroll to: a lazy image is otherwise fetched up to 2,500 px ahead on a slow link). Not for
   * horizontal carousels, whose hidden cards would wait for a swipe.
   */
  nearOnly?: boolean;
  variant: "card" | "hero";
  /** How wide the box is drawn (a `sizes` value); the hero has its own. */
  sizes?: string;
  width: number;
  height: number;
  eager?: boolean;
  /** The page's main image (the first hero): fetched before the others. */
  highPriority?: boolean;
  /** Cover the parent box (the hero) instead of keeping the poster's own shape. */
  fill?: boolean;
  className?: string;
}) {
  const { t } = useTranslation("pages");
  const hydrated = useHydrated();
  const placeholder = useRef<HTMLSpanElement>(null);
  const [near, setNear] = useState(!nearOnly);
  useEffect(() => {
    const node = placeholder.current;
    if (near || !hydrated || !node) return;
    if (typeof IntersectionObserver === "undefined") {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: "100% 0px" },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [near, hydrated]);
  if (!owner) {
    return (
      <div
        className={`grid place-items-center bg-gradient-to-br from-ink-700 to-ink-900 text-xs text-slate-400 ${fill ? "h-full w-full" : ""} ${className}`}
        style={fill ? undefined : { aspectRatio: `${width} / ${height}` }}
      >
        {t("card.noPoster")}
      </div>
    );
  }
  const drawn = variant === "hero" ? HERO_SIZES : (sizes ?? CARD_SIZES.grid);
  const imageClassName = `${fill ? "h-full" : "h-auto"} w-full object-cover ${className}`;
  if (!eager && (!hydrated || !near)) {
    // The box keeps the poster's place; without JavaScript the poster itself fills it.
    return (
      <span
        ref={placeholder}
        data-poster-waiting=""
        className={`block w-full ${fill ? "h-full" : ""}`}
        style={fill ? undefined : { aspectRatio: `${width} / ${height}` }}
      >
        <noscript>
          <img
            src={variant === "hero" ? sizedPosterUrl(owner, "hero", 640, "jpg") : fixedPosterUrl(owner, "card")}
            alt=""
            width={width}
            height={height}
            loading="lazy"
            decoding="async"
            className={imageClassName}
          />
        </noscript>
      </span>
    );
  }
  return (
    <picture className={fill ? "block h-full w-full" : undefined}>
      {variant === "hero" ? (
        <>
          <source
            media={HERO_PHONES}
            type="image/avif"
            srcSet={posterSrcSet(owner, "tall", "avif")}
            sizes={HERO_PHONE_SIZES}
          />
          <source media={HERO_PHONES} srcSet={posterSrcSet(owner, "tall", "jpg")} sizes={HERO_PHONE_SIZES} />
        </>
      ) : null}
      <source type="image/avif" srcSet={posterSrcSet(owner, variant, "avif")} sizes={drawn} />
      <img
        src={fixedPosterUrl(owner, variant)}
        srcSet={posterSrcSet(owner, variant, "jpg")}
        sizes={drawn}
        alt=""
        width={width}
        height={height}
        loading={eager ? "eager" : "lazy"}
        decoding="async"
        // React 18 only knows the lower-case attribute.
        {...(highPriority ? { fetchpriority: "high" } : {})}
        className={imageClassName}
      />
    </picture>
  );
}

/** A title's card: 300×200 poster, title, real average rating; the whole card opens the watch page (a series: its page). */
export function MovieCard({
  movie,
  eager = false,
  nearOnly = false,
  sizes = CARD_SIZES.grid,
}: {
  movie: CatalogueCard;
  eager?: boolean;
  /** Its poster is fetched only once the viewer scrolls near it (`Poster`'s `nearOnly`). */
  nearOnly?: boolean;
  /** How wide the card is drawn where it is shown (CARD_SIZES). */
  sizes?: string;
}) {
  const { t } = useTranslation("pages");
  const formatDuration = useDuration();
  const duration =
    movie.kind === "series" ? t("card.episodes", { count: movie.episodeCount }) : formatDuration(movie.durationSeconds);
  return (
    <article className="group relative h-full overflow-hidden rounded-lg bg-ink-800 ring-1 ring-white/5 transition focus-within:ring-brand-400 hover:ring-brand-400/60">
      <div className="relative overflow-hidden">
        <Poster
          owner={movie.poster}
          variant="card"
          sizes={sizes}
          width={300}
          height={200}
          eager={eager}
          nearOnly={nearOnly}
          className="aspect-[3/2] transition duration-300 group-hover:scale-105"
        />
        {movie.access === "premium" ? (
          <span className="absolute top-2 left-2 rounded bg-brand-600 px-1.5 py-0.5 text-[10px] font-bold tracking-wide text-white uppercase">
            {t("card.premium")}
          </span>
        ) : null}
      </div>
      <div className="p-3">
        <h3 className="truncate text-sm font-semibold text-slate-50">
          <Link to={movie.href} className="after:absolute after:inset-0 focus-visible:outline-none">
            {movie.name}
          </Link>
        </h3>
        <p className="mt-0.5 truncate text-xs text-slate-400">
          {movie.categoryName}
          {duration ? <span> · {duration}</span> : null}
        </p>
        <Rating average={movie.averageRating} count={movie.ratingCount} className="mt-1.5" />
      </div>
    </article>
  );
}
