import { useSearchParams } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";

/**
 * Previous / next links that keep the rest of the query: paging works without JavaScript.
 * `param` names the page number in the query, for pages with several paged tables.
 */
export function Pagination({
  page,
  pageCount,
  param = "page",
  label,
}: {
  page: number;
  pageCount: number;
  param?: string;
  label?: string;
}) {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  if (pageCount <= 1) return null;
  const hrefFor = (target: number) => {
    const next = new URLSearchParams(searchParams);
    next.delete("confirm");
    next.set(param, String(target));
    return `?${next}`;
  };
  return (
    <nav aria-label={label ?? t("pagination.label")} className="mt-6 flex items-center justify-between gap-3 text-sm">
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} rel="prev" className="rounded border border-white/15 px-3 py-2 hover:bg-white/5">
          {t("pagination.previous")}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-slate-300">{t("pagination.status", { page, pageCount })}</span>
      {page < pageCount ? (
        <Link to={hrefFor(page + 1)} rel="next" className="rounded border border-white/15 px-3 py-2 hover:bg-white/5">
          {t("pagination.next")}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
