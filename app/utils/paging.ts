/**
 * The one reading of a page number from a query string: a whole number from
 * 1 to MAX_PAGE, else 1. Anything else (text, a negative, 99999999999999999999)
 * never reaches a query, where it would overflow an OFFSET.
 */
export const MAX_PAGE = 1_000_000;

export function pageNumber(value: string | null | undefined): number {
  if (!value || !/^\d{1,7}$/.test(value.trim())) return 1;
  const page = Number(value.trim());
  return page >= 1 && page <= MAX_PAGE ? page : 1;
}

/** `?page=` (or another parameter) of a request or URL. */
export function pageParam(source: Request | URL, name = "page"): number {
  const url = source instanceof URL ? source : new URL(source.url);
  return pageNumber(url.searchParams.get(name));
}
