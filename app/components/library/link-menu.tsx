import { Link } from "~/components/ui/link";

/** A labelled row of plain links (filters, sorts, categories): each is a GET, so it works without JavaScript. */
export function LinkMenu({
  label,
  items,
}: {
  label: string;
  items: { href: string; text: string; current: boolean }[];
}) {
  return (
    <nav aria-label={label}>
      <p className="mb-1 text-sm font-semibold text-slate-200">{label}</p>
      <ul className="flex flex-wrap gap-2 text-sm">
        {items.map((item) => (
          <li key={item.href}>
            <Link
              to={item.href}
              aria-current={item.current ? "page" : undefined}
              className="inline-block rounded-full border border-white/15 px-3 py-1 hover:bg-white/5 aria-[current=page]:border-brand-400 aria-[current=page]:bg-brand-600/30"
            >
              {item.text}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The same page with some query values changed (null removes one); paging starts again at page 1. */
export function hrefWithQuery(
  pathname: string,
  current: URLSearchParams,
  changes: Record<string, string | null>,
): string {
  const next = new URLSearchParams(current);
  next.delete("page");
  next.delete("confirm");
  for (const [key, value] of Object.entries(changes)) {
    if (value) next.set(key, value);
    else next.delete(key);
  }
  const query = next.toString();
  return query ? `${pathname}?${query}` : pathname;
}
