import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import type { CatalogueCard } from "~/services/catalogue.server";
import { Carousel } from "./carousel";
import { CARD_SIZES, MovieCard } from "./movie-card";

export function SectionHeading({ id, title, intro }: { id: string; title: string; intro?: string }) {
  return (
    <div>
      <h2 id={id} className="text-xl font-bold tracking-tight text-white sm:text-2xl">
        <span className="mr-2 inline-block h-5 w-1 rounded bg-brand-500 align-[-2px]" aria-hidden="true" />
        {title}
      </h2>
      {intro ? <p className="mt-1 text-sm text-slate-400">{intro}</p> : null}
    </div>
  );
}

function EmptyRow() {
  const { t } = useTranslation("pages");
  return (
    <p className="rounded-lg border border-dashed border-white/10 px-4 py-8 text-center text-sm text-slate-400">
      {t("home.emptyRow")}
    </p>
  );
}

/** A titled carousel of movie cards (a scrollable row without JavaScript). */
export function MovieCarouselSection({
  id,
  title,
  intro,
  movies,
}: {
  id: string;
  title: string;
  intro?: string;
  movies: CatalogueCard[];
}) {
  const headingId = `${id}-heading`;
  const heading = <SectionHeading id={headingId} title={title} intro={intro} />;
  // The carousel is itself the labelled region; an empty row is a plain labelled section.
  if (movies.length === 0) {
    return (
      <section id={id} aria-labelledby={headingId} className="mx-auto max-w-7xl px-4 py-6" data-section={id}>
        <div className="mb-3">{heading}</div>
        <EmptyRow />
      </section>
    );
  }
  return (
    <div id={id} className="mx-auto max-w-7xl px-4 py-6" data-section={id}>
      <Carousel label={title} labelledBy={headingId} heading={heading}>
        {movies.map((movie) => (
          <MovieCard key={movie.id} movie={movie} sizes={CARD_SIZES.carousel} />
        ))}
      </Carousel>
    </div>
  );
}

/** A titled grid of movie cards: 2 columns on phones up to 4 on wide screens. */
export function MovieGridSection({
  id,
  title,
  intro,
  movies,
  children,
}: {
  id: string;
  title: string;
  intro?: string;
  movies: CatalogueCard[];
  children?: ReactNode;
}) {
  const headingId = `${id}-heading`;
  return (
    <section id={id} aria-labelledby={headingId} className="mx-auto max-w-7xl px-4 py-6" data-section={id}>
      <div className="mb-3">
        <SectionHeading id={headingId} title={title} intro={intro} />
      </div>
      {movies.length === 0 ? (
        <EmptyRow />
      ) : (
        <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
          {movies.map((movie) => (
            <li key={movie.id}>
              <MovieCard movie={movie} />
            </li>
          ))}
        </ul>
      )}
      {children}
    </section>
  );
}

/** The landing page's shelves (About shows two of them): a grid or a carousel each, titled from the pages catalogue. */
const SHELVES = {
  suggested: MovieGridSection,
  action: MovieGridSection,
  featured: MovieCarouselSection,
  trending: MovieCarouselSection,
  new: MovieCarouselSection,
} as const;

export function HomeShelf({ shelf, movies }: { shelf: keyof typeof SHELVES; movies: CatalogueCard[] }) {
  const { t } = useTranslation("pages");
  const Section = SHELVES[shelf];
  return <Section id={shelf} title={t(`home.${shelf}`)} intro={t(`home.${shelf}Intro`)} movies={movies} />;
}
