import type { LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { Form, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { requireViewer } from "~/auth/guards.server";
import { CARD_SIZES, MovieCard } from "~/components/catalogue/movie-card";
import { hrefWithQuery, LinkMenu } from "~/components/library/link-menu";
import { Pagination } from "~/components/ui/pagination";
import { getRequestT } from "~/i18n/translate.server";
import { getDb } from "~/db/client.server";
import {
  browseCatalogue,
  listCategoryTiles,
  normaliseSearchText,
  parseBrowseSort,
  searchEpisodes,
  toFtsQuery,
  type CategoryTile,
} from "~/services/search.server";
import { SEARCH_MAX_LENGTH } from "~/utils/form-limits";
import { pageParam } from "~/utils/paging";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["browse", "pages"] };

export const meta = metaTitleMeta;

const PAGE_SIZE = 24;

/** Category tiles, the Movie Category and Sort by menus, and search — all GET, so all of it works without JavaScript. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request);
  const children = viewer.profile.children;
  const url = new URL(request.url);
  const q = normaliseSearchText(url.searchParams.get("q"));
  const categorySlug = url.searchParams.get("category")?.slice(0, 80) || null;
  const sort = parseBrowseSort(url.searchParams.get("sort"));
  const page = pageParam(url);
  const { t } = await getRequestT(request, "browse");
  const result = browseCatalogue({ q, categorySlug, sort, page, pageSize: PAGE_SIZE, children });
  // Episodes are not cards of their own: a search lists those whose own words match (first page, any category).
  const episodes = q && result.page === 1 && !categorySlug ? searchEpisodes(getDb(), toFtsQuery(q), 12, children) : [];
  return {
    metaTitle: t("category.metaTitle"),
    q,
    categorySlug,
    sort,
    categories: listCategoryTiles(),
    episodes,
    ...result,
  };
}

export default function MovieCategory() {
  const { t } = useTranslation("browse");
  const data = useLoaderData<typeof loader>();
  const { q, sort, category, categorySlug, movies, total, page, pageCount, emptyQuery, episodes } = data;
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location.pathname === "/moviecategory";
  const href = (changes: Record<string, string | null>) => hrefWithQuery("/moviecategory", searchParams, changes);
  const showTiles = !q && !categorySlug;

  const heading = q
    ? category
      ? t("category.resultsForIn", { q, category: category.name })
      : t("category.resultsFor", { q })
    : (category?.name ?? t("category.allTitles"));

  return (
    <section className="mx-auto w-full max-w-7xl px-4 py-10">
      <h1 className="text-3xl font-bold">{t("category.title")}</h1>

      <Form method="get" role="search" className="mt-6 flex max-w-xl flex-wrap items-end gap-2">
        <label className="grid flex-1 gap-1 text-sm">
          <span className="font-medium text-slate-200">{t("category.searchLabel")}</span>
          <input
            type="search"
            name="q"
            defaultValue={q}
            key={q}
            maxLength={SEARCH_MAX_LENGTH}
            placeholder={t("category.searchPlaceholder")}
            className="rounded border border-white/15 bg-ink-900 px-3 py-2 text-slate-50 placeholder:text-slate-500 focus:ring-2 focus:ring-brand-500 focus:outline-none"
          />
        </label>
        {categorySlug ? <input type="hidden" name="category" value={categorySlug} /> : null}
        {sort ? <input type="hidden" name="sort" value={sort} /> : null}
        <button
          type="submit"
          aria-disabled={searching || undefined}
          className="rounded bg-brand-600 px-5 py-2 font-semibold text-white hover:bg-brand-700 aria-disabled:opacity-70"
        >
          {t("category.searchButton")}
        </button>
      </Form>

      <div className="mt-6 flex flex-wrap gap-x-8 gap-y-4">
        <LinkMenu
          label={t("category.menu")}
          items={[
            { href: href({ category: null }), text: t("category.all"), current: !categorySlug },
            ...data.categories.map((item) => ({
              href: href({ category: item.slug }),
              text: item.name,
              current: categorySlug === item.slug,
            })),
          ]}
        />
        <LinkMenu
          label={t("category.sortBy")}
          items={[
            { href: href({ sort: "featured" }), text: t("category.sortFeatured"), current: sort === "featured" },
            // Newest first is also the order when nothing is chosen and nothing is searched.
            {
              href: href({ sort: "new" }),
              text: t("category.sortNew"),
              current: sort === "new" || (sort === null && !q),
            },
            { href: href({ sort: "trending" }), text: t("category.sortTrending"), current: sort === "trending" },
          ]}
        />
      </div>

      {showTiles && data.categories.length > 0 ? (
        <section aria-labelledby="tiles-heading" className="mt-10">
          <h2 id="tiles-heading" className="text-xl font-semibold">
            {t("category.tilesTitle")}
          </h2>
          <ul className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4" data-testid="category-tiles">
            {data.categories.map((item) => (
              <li key={item.id}>
                <CategoryTileLink tile={item} href={href({ category: item.slug })} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="results-heading" className="mt-10">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="results-heading" className="text-xl font-semibold">
            {heading}
          </h2>
          <p className="text-sm text-slate-300" data-testid="result-count">
            {t("category.count", { count: total })}
          </p>
        </div>
        {movies.length === 0 && episodes.length > 0 ? null : movies.length === 0 ? (
          <div
            className="mt-6 rounded-lg border border-white/10 bg-ink-900/60 p-6 text-slate-300"
            data-testid="empty-results"
          >
            <p>{emptyQuery ? t("category.emptyQuery") : q ? t("category.empty") : t("category.emptyCategory")}</p>
            <Link to="/moviecategory" className="mt-3 inline-block text-brand-300 hover:underline">
              {t("category.backToAll")}
            </Link>
          </div>
        ) : (
          <ul
            className="mt-6 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-6"
            data-testid="movie-grid"
          >
            {movies.map((movie, index) => (
              <li key={movie.id} data-movie-id={movie.id}>
                <MovieCard movie={movie} eager={index < 6 && !showTiles} sizes={CARD_SIZES.wideGrid} />
              </li>
            ))}
          </ul>
        )}
        <Pagination page={page} pageCount={pageCount} />
      </section>

      {episodes.length > 0 ? (
        <section aria-labelledby="episodes-heading" className="mt-10">
          <h2 id="episodes-heading" className="text-xl font-semibold">
            {t("category.episodes")}
          </h2>
          <ul className="mt-4 grid gap-2 sm:grid-cols-2 lg:grid-cols-3" data-testid="episode-results">
            {episodes.map((episode) => (
              <li key={episode.id} data-movie-id={episode.id}>
                <Link
                  to={episode.href}
                  className="block rounded-lg border border-white/10 bg-ink-900/60 px-4 py-3 hover:border-brand-400"
                >
                  <span className="block font-medium text-white">{episode.name}</span>
                  <span className="block text-sm text-slate-400">
                    {episode.seriesName} · {episode.code}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </section>
  );
}

/** A category's tile: its image when an administrator gave one, else a gradient with its initial. */
function CategoryTileLink({ tile, href }: { tile: CategoryTile; href: string }) {
  const { t } = useTranslation("browse");
  return (
    <Link
      to={href}
      aria-label={t("category.tileLabel", { name: tile.name })}
      className="group block overflow-hidden rounded-lg ring-1 ring-white/10 hover:ring-brand-400 focus-visible:ring-brand-400"
      data-category={tile.slug}
    >
      {tile.imageUrl ? (
        <img
          src={tile.imageUrl}
          alt=""
          width={600}
          height={400}
          loading="lazy"
          decoding="async"
          className="aspect-[3/2] h-auto w-full object-cover transition duration-300 group-hover:opacity-90"
        />
      ) : (
        <div
          aria-hidden="true"
          className="grid aspect-[3/2] w-full place-items-center bg-gradient-to-br from-brand-700/70 via-ink-800 to-ink-950"
        >
          <span className="text-5xl font-black text-white/25">{[...tile.name][0]?.toUpperCase()}</span>
        </div>
      )}
      <span className="block bg-ink-800 px-3 py-2 text-sm font-semibold text-white">{tile.name}</span>
    </Link>
  );
}
