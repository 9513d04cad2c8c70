import { Link } from "~/components/ui/link";
import type { ReactNode } from "react";
import { CARD_SIZES, Poster, watchHref } from "~/components/catalogue/movie-card";
import type { PosterOwner } from "~/media/poster-sizes";

/**
 * One title in a viewer's own lists (history, watch later, saved): its poster
 * and name leading to the watch page, a line of facts, what the list adds
 * (progress, rating) and the row's buttons.
 */
export function LibraryRow({
  item,
  facts,
  children,
  actions,
}: {
  item: { id: string; name: string; poster: PosterOwner | null };
  facts: ReactNode;
  children?: ReactNode;
  actions: ReactNode;
}) {
  return (
    <li
      data-movie-id={item.id}
      className="flex min-w-0 flex-wrap items-center gap-4 rounded-lg border border-white/10 bg-ink-900/60 p-3"
    >
      <PosterThumbnail to={watchHref(item.id)} poster={item.poster} />
      <div className="min-w-0 flex-1">
        <h2 className="truncate font-semibold text-slate-50">{item.name}</h2>
        <p className="text-xs text-slate-400">{facts}</p>
        {children}
      </div>
      <div className="flex items-center gap-2">{actions}</div>
    </li>
  );
}

/**
 * A row's small poster leading where its name does (hidden from screen
 * readers and the tab order: the name's link says it once).
 */
export function PosterThumbnail({ to, poster }: { to: string; poster: PosterOwner | null }) {
  return (
    <Link to={to} className="block w-32 shrink-0 overflow-hidden rounded" tabIndex={-1} aria-hidden="true">
      <Poster
        owner={poster}
        variant="card"
        sizes={CARD_SIZES.thumbnail}
        width={300}
        height={200}
        className="aspect-[3/2]"
      />
    </Link>
  );
}
