/**
 * A page of a few lines, without the app's scripts or styles: what the server answers when it cannot render a
 * whole page (a full disk, a box too busy), in the reader's language.
 */
export function plainPage(
  language: string,
  parts: { title: string; text: string; link?: { href: string; label: string }; refreshSeconds?: number },
): string {
  const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const refresh = parts.refreshSeconds ? `<meta http-equiv="refresh" content="${parts.refreshSeconds}">` : "";
  const link = parts.link ? `<p><a href="${escape(parts.link.href)}">${escape(parts.link.label)}</a></p>` : "";
  return `<!doctype html><html lang="${language}"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${refresh}<title>${escape(parts.title)} · Kallo</title><style>body{font-family:system-ui,sans-serif;background:#0b0b12;color:#eee;margin:0;padding:2rem 1rem}main{max-width:36rem;margin:auto}a{color:#f5b942}</style><main><h1>${escape(parts.title)}</h1><p>${escape(parts.text)}</p>${link}</main></html>`;
}
