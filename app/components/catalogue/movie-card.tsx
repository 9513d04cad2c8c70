import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { CatalogueCard } from "~/services/catalogue.server";

export function watchHref(movieId: string): string {
  return `/WatchMovie?id=${encodeURIComponent(movieId)}`;
}

/** "1 h 32 min" or "7 min" (never "0 min": very short titles show 1 min). */
export function useDuration() {
  const { t } = useTranslation("pages");
  return (seconds: number) => {
    if (seconds <= 0) return null;
    const totalMinutes = Math.max(1, Math.round(seconds / 60));
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
  return (
    <p className={`flex items-center gap-1 text-xs text-slate-300 ${className}`}>
      <span className="sr-only">{t("card.rating", { average: shown, count })}</span>
      <span aria-hidden="true" className="flex items-center gap-1">
        <svg viewBox="0 0 20 20" width="14" height="14" className="text-brand-400" fill="currentColor">
          <path d="M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9z" />
        </svg>
        <span className="font-semibold text-slate-100">{shown}</span>
        <span className="text-slate-400">{t("card.ratingCount", { count })}</span>
      </span>
    </p>
  );
}

/** A poster that prefers webp and falls back to jpg; sized so the page never jumps while it loads. */
export function Poster({
  jpg,
  webp,
  width,
  height,
  eager = false,
  fill = false,
  className = "",
}: {
  jpg: string | null;
  webp: string | null;
  width: number;
  height: number;
  eager?: boolean;
  /** Cover the parent box (the hero) instead of keeping the poster's own shape. */
  fill?: boolean;
  className?: string;
}) {
  const { t } = useTranslation("pages");
  if (!jpg) {
    return (
      <div
        className={`grid place-items-center bg-gradient-to-br from-ink-700 to-ink-900 text-xs text-slate-400 ${fill ? "h-full w-full" : ""} ${className}`}
        style={fill ? undefined : { aspectRatio: `${width} / ${height}` }}
      >
        {t("card.noPoster")}
      </div>
    );
  }
  return (
    <picture className={fill ? "block h-full w-full" : undefined}>
      {webp ? <source type="image/webp" srcSet={webp} /> : null}
      <img
        src={jpg}
        alt=""
        width={width}
        height={height}
        loading={eager ? "eager" : "lazy"}
        decoding="async"
        // React 18 only knows the lower-case attribute.
        {...(eager ? { fetchpriority: "high" } : {})}
        className={`${fill ? "h-full" : "h-auto"} w-full object-cover ${className}`}
      />
    </picture>
  );
}

/** A title's card: 300×200 poster, title, real average rating; the whole card opens the watch page. */
export function MovieCard({ movie, eager = false }: { movie: CatalogueCard; eager?: boolean }) {
  const { t } = useTranslation("pages");
  const duration = useDuration()(movie.durationSeconds);
  return (
    <article className="group relative h-full overflow-hidden rounded-lg bg-ink-800 ring-1 ring-white/5 transition focus-within:ring-brand-400 hover:ring-brand-400/60">
      <div className="relative overflow-hidden">
        <Poster
          jpg={movie.posterCard}
          webp={movie.posterCardWebp}
          width={300}
          height={200}
          eager={eager}
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
          <Link to={watchHref(movie.id)} className="after:absolute after:inset-0 focus-visible:outline-none">
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
