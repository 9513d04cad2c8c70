import { Form } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { Rating, watchHref } from "~/components/catalogue/movie-card";
import { Pagination } from "~/components/ui/pagination";
import type { SavedListPage } from "~/services/saved-lists.server";
import { LibraryRow } from "./library-row";
import { LibraryTabs } from "./library-tabs";
import { RemoveButton } from "./remove-button";
import { dateFormatter } from "~/utils/dates";

/**
 * A viewer's watch-later or saved list: each title with Watch and Remove. The
 * Remove button is a POST to `action` (the list's own route), which comes back
 * here with a toast.
 */
export function SavedListView({
  title,
  emptyText,
  action,
  here,
  language,
  list,
}: {
  title: string;
  emptyText: string;
  action: string;
  here: string;
  language: string;
  list: SavedListPage;
}) {
  const { t } = useTranslation("browse");
  const dates = dateFormatter(language);
  return (
    <section className="mx-auto w-full max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-bold">{title}</h1>
      <LibraryTabs />
      {list.items.length === 0 ? (
        <div
          className="mt-8 rounded-lg border border-white/10 bg-ink-900/60 p-6 text-slate-300"
          data-testid="empty-list"
        >
          <p>{emptyText}</p>
          <Link to="/movies" className="mt-3 inline-block text-brand-300 hover:underline">
            {t("lists.browse")}
          </Link>
        </div>
      ) : (
        <ul className="mt-8 grid gap-3" data-testid="saved-list">
          {list.items.map((item) => (
            <LibraryRow
              key={item.id}
              item={item}
              facts={
                <>
                  {item.categoryName} ·{" "}
                  <time dateTime={item.addedAt}>
                    {t("lists.added", { date: dates.format(new Date(item.addedAt)) })}
                  </time>
                </>
              }
              actions={
                <>
                  <Link
                    to={watchHref(item.id)}
                    className="rounded bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700"
                  >
                    {t("lists.watch")}
                  </Link>
                  <Form method="post" action={action}>
                    <input type="hidden" name="movieId" value={item.id} />
                    <input type="hidden" name="redirectTo" value={here} />
                    <RemoveButton
                      movieId={item.id}
                      label={t("lists.removeLabel", { name: item.name })}
                      pendingText={t("lists.removing")}
                    >
                      {t("lists.remove")}
                    </RemoveButton>
                  </Form>
                </>
              }
            >
              <Rating average={item.averageRating} count={item.ratingCount} className="mt-1" />
            </LibraryRow>
          ))}
        </ul>
      )}
      <Pagination page={list.page} pageCount={list.pageCount} />
    </section>
  );
}
