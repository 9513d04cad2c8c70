import type { LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { requireViewer } from "~/auth/guards.server";
import { CARD_SIZES, MovieCard } from "~/components/catalogue/movie-card";
import { LinkMenu } from "~/components/library/link-menu";
import { Pagination } from "~/components/ui/pagination";
import { ContinueWatchingRow } from "~/components/catalogue/continue-watching";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { listCatalogue, parseCatalogueFilter, parseCatalogueSort } from "~/services/catalogue-lists.server";
import { listContinueWatching } from "~/services/continue-watching.server";
import { pageParam } from "~/utils/paging";
import type { TranslationHandle } from "~/i18n/page-translations";
import { loadAfterPlayingSaved } from "~/utils/watch-time";

export const handle: TranslationHandle = { i18n: ["pages", "watch"] };

export const meta = metaTitleMeta;

const PAGE_SIZE = 24;

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request);
  const url = new URL(request.url);
  const sort = parseCatalogueSort(url.searchParams.get("sort"));
  const filter = parseCatalogueFilter(url.searchParams.get("filter"));
  const page = pageParam(url);
  const { t } = await getRequestT(request, "watch");
  return {
    metaTitle: t("movies.metaTitle"),
    // First on the first page only: paging and sorting are about the catalogue.
    continueWatching: page === 1 && !sort && !filter ? listContinueWatching(getDb(), viewer) : [],
    sort,
    filter,
    ...listCatalogue({ sort, filter, page, pageSize: PAGE_SIZE, children: viewer.profile.children }),
  };
}

/** Leaving a playing film for this page: its position is saved before this page reads it. */
export const clientLoader = loadAfterPlayingSaved;

export default function Movies() {
  const { t } = useTranslation("watch");
  const { continueWatching, movies, total, page, pageCount, sort, filter } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();

  /** The same list with one choice changed; paging starts again at page 1. */
  const hrefWith = (key: "sort" | "filter", value: string | null) => {
    const next = new URLSearchParams(searchParams);
    next.delete("page");
    if (value) next.set(key, value);
    else next.delete(key);
    const query = next.toString();
    return query ? `/movies?${query}` : "/movies";
  };

  return (
    <>
      <ContinueWatchingRow items={continueWatching} />
      <section className="mx-auto w-full max-w-7xl px-4 py-10">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="text-3xl font-bold">{t("movies.title")}</h1>
            <p className="mt-1 text-sm text-slate-300">{t("movies.count", { count: total })}</p>
          </div>
          <div className="flex flex-wrap gap-6 text-sm">
            <LinkMenu
              label={t("movies.releaseDate")}
              items={[
                { href: hrefWith("sort", "old"), text: t("movies.oldUpload"), current: sort === "old" },
                // Newest first is also the order when no sort is chosen (except Trending: most played first).
                {
                  href: hrefWith("sort", "new"),
                  text: t("movies.newUpload"),
                  current: sort === "new" || (sort === null && filter !== "trending"),
                },
              ]}
            />
            <LinkMenu
              label={t("movies.newMovies")}
              items={[
                { href: hrefWith("filter", null), text: t("movies.all"), current: filter === null },
                { href: hrefWith("filter", "featured"), text: t("movies.featured"), current: filter === "featured" },
                { href: hrefWith("filter", "new"), text: t("movies.new"), current: filter === "new" },
                { href: hrefWith("filter", "trending"), text: t("movies.trending"), current: filter === "trending" },
              ]}
            />
          </div>
        </div>

        {movies.length === 0 ? (
          <div className="mt-8 rounded-lg border border-white/10 bg-ink-900/60 p-6 text-slate-300">
            <p>{t("movies.empty")}</p>
            <Link to="/movies" className="mt-3 inline-block text-brand-300 hover:underline">
              {t("movies.showAll")}
            </Link>
          </div>
        ) : (
          <ul
            className="mt-8 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-6"
            data-testid="movie-grid"
          >
            {movies.map((movie, index) => (
              <li key={movie.id} data-movie-id={movie.id}>
                <MovieCard movie={movie} eager={index < 6} sizes={CARD_SIZES.wideGrid} />
              </li>
            ))}
          </ul>
        )}
        <Pagination page={page} pageCount={pageCount} />
      </section>
    </>
  );
}
