/**
 * A file name as sent by a browser, a tus client or an API caller, reduced
 * to a safe base name before it is stored or shown: the last part after
 * either kind of slash (`..\..\evil.mp4` → `evil.mp4`), without control
 * characters, trimmed, at most 255 characters. "" when nothing is left.
 */
export function safeBaseName(name: string | null | undefined): string {
  const last = (name ?? "").split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  const clean = last.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim();
  return clean === "." || clean === ".." ? "" : clean.slice(-255);
}
