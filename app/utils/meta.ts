/**
 * A page title for `meta`, in the reader's language: the loader translates it
 * on the server and returns it with its data, so the tab title matches the page.
 */
export function titleMeta(data: { title?: string; description?: string } | undefined, fallback = "Kallo") {
  const tags: Array<Record<string, string>> = [{ title: data?.title ?? fallback }];
  if (data?.description) tags.push({ name: "description", content: data.description });
  return tags;
}
