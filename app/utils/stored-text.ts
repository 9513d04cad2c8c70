/**
 * Text from people (forms, the JSON API, an upload's metadata) is stored
 * without control characters: NUL, escape sequences and the like would
 * corrupt a CSV, a log line or a terminal that shows them, and cannot be
 * typed on purpose. Tab and line feed stay in texts of several lines; a
 * carriage return becomes a line feed.
 */
// eslint-disable-next-line no-control-regex -- control characters are what these find
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

export function withoutControls(value: string): string {
  return value.replace(/\r\n?/g, "\n").replace(CONTROLS, "");
}

/** A one-line text (a name, an email, a phone number): line breaks and tabs become single spaces too. */
export function oneLine(value: string): string {
  return withoutControls(value).replace(/[\t\n]+/g, " ");
}
