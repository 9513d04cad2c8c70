import type { MetaFunction } from "@remix-run/node";

/**
 * A page title for `meta`, in the reader's language: the loader translates it
 * on the server and returns it with its data, so the tab title matches the page.
 */
export function titleMeta(data: { title?: string; description?: string } | undefined, fallback = "Kallo") {
  const tags: Array<Record<string, string>> = [{ title: data?.title ?? fallback }];
  if (data?.description) tags.push({ name: "description", content: data.description });
  return tags;
}

/** `meta` of a page whose loader returns its title, translated, as `metaTitle`. */
export const metaTitleMeta: MetaFunction = ({ data }) => [
  { title: (data as { metaTitle?: string } | undefined)?.metaTitle ?? "Kallo" },
];
