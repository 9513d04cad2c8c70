/**
 * Subtitle files as providers send them (WebVTT or SRT, in whatever text
 * encoding their tool wrote) turned into the one form the service stores and
 * serves: clean UTF-8 WebVTT.
 *
 * - Text: UTF-8 with or without a byte order mark; UTF-16 with one; anything
 *   that is not valid UTF-8 is read as Windows-1252 (which Latin-1 files are,
 *   for every printable character). NUL bytes or many control characters mean
 *   a binary file, refused.
 * - Cues: every timing line must parse and end after it starts; cues are put
 *   in order of their start (WebVTT requires it; SRT tools are not always
 *   careful). A file without a single cue is refused.
 * - Cue text keeps WebVTT's own markup only (<b> <i> <u> <c> <v> <lang>
 *   <ruby> <rt>, rebuilt from their parts and closed where left open); every
 *   other tag goes (SRT's <font>, HTML, and <script>/<style> with their
 *   contents), as do SSA overrides such as {\an8}; stray `<`, `>` and `&` are
 *   escaped so the text reads as written. WebVTT cue settings that are valid
 *   are kept; STYLE, REGION and NOTE blocks and cue identifiers are dropped.
 */
export const SUBTITLE_MAX_BYTES = 1024 * 1024;

export type SubtitleFormat = "vtt" | "srt";
export type SubtitleEncoding = "utf-8" | "utf-16" | "windows-1252";

export type SubtitleProblem =
  | { problem: "empty" }
  | { problem: "tooLarge"; maxBytes: number }
  | { problem: "binary" }
  | { problem: "notSubtitles" }
  | { problem: "badTimestamp"; line: number }
  | { problem: "noCues" };

export type ConvertedSubtitles =
  | { ok: true; vtt: string; cues: number; format: SubtitleFormat; encoding: SubtitleEncoding }
  | ({ ok: false } & SubtitleProblem);

export type Cue = { start: number; end: number; text: string; settings: string };

/**
 * Windows-1252 is Latin-1 but for 0x80–0x9F, where it has the curly quotes,
 * dashes, € and a few letters (Node's own decoder reads those bytes as Latin-1
 * control characters). The five unassigned bytes stay as they are.
 */
const WINDOWS_1252_HIGH = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";

function decodeWindows1252(bytes: Uint8Array): string {
  let text = "";
  for (let start = 0; start < bytes.length; start += 8192) {
    const chunk = bytes.subarray(start, start + 8192);
    text += String.fromCharCode(...chunk);
  }
  return text.replace(/[\u0080-\u009f]/g, (char) => WINDOWS_1252_HIGH[char.charCodeAt(0) - 0x80]);
}

/** Read the bytes as text (see the module's comment), or say why they are not text. */
export function decodeSubtitleBytes(
  bytes: Uint8Array,
): { ok: true; text: string; encoding: SubtitleEncoding } | { ok: false; problem: "binary" } {
  let text: string;
  let encoding: SubtitleEncoding;
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    text = new TextDecoder(bytes[0] === 0xff ? "utf-16le" : "utf-16be").decode(bytes);
    encoding = "utf-16";
  } else {
    if (bytes.includes(0)) return { ok: false, problem: "binary" };
    try {
      // The byte order mark, when there is one, is dropped by the decoder.
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      encoding = "utf-8";
    } catch {
      text = decodeWindows1252(bytes);
      encoding = "windows-1252";
    }
  }
  // eslint-disable-next-line no-control-regex -- control characters are what is being counted
  const controls = text.match(/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g)?.length ?? 0;
  if (text.includes("\u0000") || controls > Math.max(2, text.length / 1000)) return { ok: false, problem: "binary" };
  return { ok: true, text, encoding };
}

/** Check, clean and convert a subtitle file to WebVTT. */
export function convertSubtitles(bytes: Uint8Array): ConvertedSubtitles {
  if (bytes.length > SUBTITLE_MAX_BYTES) return { ok: false, problem: "tooLarge", maxBytes: SUBTITLE_MAX_BYTES };
  const decoded = decodeSubtitleBytes(bytes);
  if (!decoded.ok) return { ok: false, problem: "binary" };
  const text = decoded.text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    // eslint-disable-next-line no-control-regex -- the few stray control characters a text file may hold are dropped
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "");
  if (text.trim() === "") return { ok: false, problem: "empty" };
  const format: SubtitleFormat | null = /^WEBVTT(?:[ \t\n]|$)/.test(text) ? "vtt" : /-->/.test(text) ? "srt" : null;
  if (!format) return { ok: false, problem: "notSubtitles" };
  const parsed = format === "vtt" ? parseWebVtt(text) : parseSrt(text);
  if (!parsed.ok) return parsed;
  const cues = parsed.cues
    .map((cue) => ({ ...cue, text: cleanCueText(cue.text) }))
    .filter((cue) => cue.text !== "")
    // Stable: cues that start together keep the file's order.
    .sort((a, b) => a.start - b.start);
  if (cues.length === 0) return { ok: false, problem: "noCues" };
  return { ok: true, vtt: writeWebVtt(cues), cues: cues.length, format, encoding: decoded.encoding };
}

type Parsed = { ok: true; cues: Cue[] } | ({ ok: false } & SubtitleProblem);

/** Blocks of non-blank lines, each with the number (from 1) of its first line. */
function blocksOf(text: string): Array<{ line: number; lines: string[] }> {
  const blocks: Array<{ line: number; lines: string[] }> = [];
  let current: { line: number; lines: string[] } | null = null;
  text.split("\n").forEach((raw, index) => {
    const line = raw.replace(/[ \t]+$/, "");
    if (line.trim() === "") {
      current = null;
      return;
    }
    if (!current) {
      current = { line: index + 1, lines: [] };
      blocks.push(current);
    }
    current.lines.push(line);
  });
  return blocks;
}

const SRT_TIME = /^(\d{1,2}):(\d{1,2}):(\d{1,2})[,.](\d{1,3})$/;
const VTT_TIME = /^(?:(\d{2,}):)?(\d{2}):(\d{2})\.(\d{3})$/;

function toMilliseconds(match: RegExpExecArray | null, hoursIndex = 1): number | null {
  if (!match) return null;
  const hours = Number(match[hoursIndex] ?? 0);
  const minutes = Number(match[hoursIndex + 1]);
  const seconds = Number(match[hoursIndex + 2]);
  // "5" after the comma is half a second, as the tools that write short fractions mean it.
  const millis = Number(match[hoursIndex + 3].padEnd(3, "0"));
  if (minutes > 59 || seconds > 59 || !Number.isSafeInteger(hours)) return null;
  return ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis;
}

/** "00:00:01,000 --> 00:00:02,500" (SRT; positions after the end time, X1:… Y2:…, are ignored). */
function parseSrtTiming(line: string): { start: number; end: number } | null {
  const match = /^\s*(\S+)\s*-->\s*(\S+)(?:\s+.*)?$/.exec(line);
  if (!match) return null;
  const start = toMilliseconds(SRT_TIME.exec(match[1]));
  const end = toMilliseconds(SRT_TIME.exec(match[2]));
  if (start === null || end === null || end <= start) return null;
  return { start, end };
}

function parseSrt(text: string): Parsed {
  const cues: Cue[] = [];
  for (const block of blocksOf(text)) {
    const timingIndex = block.lines.findIndex((line) => line.includes("-->"));
    if (timingIndex === -1) {
      // A blank line inside a cue's text splits it in two blocks: the second half belongs to the cue before.
      const previous = cues.at(-1);
      if (previous && !/^\d+$/.test(block.lines[0])) previous.text += `\n${block.lines.join("\n")}`;
      continue;
    }
    // Before the timing line only the cue's number may stand.
    if (timingIndex > 1 || (timingIndex === 1 && !/^\s*\d+\s*$/.test(block.lines[0])))
      return { ok: false, problem: "badTimestamp", line: block.line + timingIndex };
    const timing = parseSrtTiming(block.lines[timingIndex]);
    if (!timing) return { ok: false, problem: "badTimestamp", line: block.line + timingIndex };
    cues.push({ ...timing, text: block.lines.slice(timingIndex + 1).join("\n"), settings: "" });
  }
  return { ok: true, cues };
}

const CUE_SETTING =
  /^(vertical:(rl|lr)|line:-?\d+(\.\d+)?%?(,(start|center|end))?|position:\d+(\.\d+)?%(,(line-left|center|line-right))?|size:\d+(\.\d+)?%|align:(start|center|end|left|right))$/;

/** "00:01.000 --> 00:02.500 align:start" (WebVTT), with its valid settings. */
function parseVttTiming(line: string): { start: number; end: number; settings: string } | null {
  const match = /^(\S+)[ \t]+-->[ \t]+(\S+)(.*)$/.exec(line);
  if (!match) return null;
  const start = toMilliseconds(VTT_TIME.exec(match[1]));
  const end = toMilliseconds(VTT_TIME.exec(match[2]));
  if (start === null || end === null || end <= start) return null;
  const settings = match[3]
    .trim()
    .split(/[ \t]+/)
    .filter((setting) => CUE_SETTING.test(setting))
    .join(" ");
  return { start, end, settings };
}

function parseWebVtt(text: string): Parsed {
  const cues: Cue[] = [];
  const blocks = blocksOf(text);
  // The first block is the header (WEBVTT and its metadata lines), unless a cue's timing follows it directly.
  const header = blocks[0];
  const firstTiming = header.lines.findIndex((line) => line.includes("-->"));
  const cueBlocks = firstTiming === -1 ? blocks.slice(1) : [{ line: header.line + 1, lines: header.lines.slice(1) }];
  if (firstTiming !== -1) cueBlocks.push(...blocks.slice(1));
  for (const block of cueBlocks) {
    const first = block.lines[0];
    if (/^(NOTE|STYLE|REGION)(?:[ \t]|$)/.test(first) && !first.includes("-->")) continue;
    const timingIndex = block.lines.findIndex((line) => line.includes("-->"));
    if (timingIndex === -1) continue;
    // An identifier line, then the timing.
    if (timingIndex > 1) return { ok: false, problem: "badTimestamp", line: block.line + timingIndex };
    const timing = parseVttTiming(block.lines[timingIndex]);
    if (!timing) return { ok: false, problem: "badTimestamp", line: block.line + timingIndex };
    cues.push({ ...timing, text: block.lines.slice(timingIndex + 1).join("\n") });
  }
  return { ok: true, cues };
}

/** WebVTT's own cue markup: everything else is removed. */
const ALLOWED_TAGS = new Set(["b", "i", "u", "c", "v", "lang", "ruby", "rt"]);
/** Elements whose content is code, not words: removed with their content. */
const DROPPED_WITH_CONTENT = /<(script|style)\b[^>]*>[\s\S]*?(<\/\1\s*>|$)/gi;
const CHARACTER_REFERENCE = /^&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});/i;

function escapeText(text: string): string {
  let out = "";
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === "&") {
      const reference = CHARACTER_REFERENCE.exec(text.slice(index));
      if (reference) {
        out += reference[0];
        index += reference[0].length - 1;
      } else out += "&amp;";
    } else if (char === "<") out += "&lt;";
    else if (char === ">") out += "&gt;";
    else out += char;
  }
  return out;
}

/** An annotation (a voice's name, a language tag) as cue text allows it: one line, no markup. */
function cleanAnnotation(value: string): string {
  return escapeText(value.replace(/\s+/g, " ").trim()).slice(0, 100);
}

/** Keep only WebVTT's tags (rebuilt, closed where left open), drop the rest, escape what is text. */
export function cleanCueText(raw: string): string {
  const text = raw
    .replace(DROPPED_WITH_CONTENT, "")
    .replace(/<!--[\s\S]*?(-->|$)/g, "")
    // WebVTT's karaoke timestamps (<00:00:01.500>): the cue shows whole.
    .replace(/<\d[\d:.]*>/g, "")
    // SSA/ASS override blocks ({\an8}, {\i1}, {\c&H00FFFF&}) that SRT files carry.
    .replace(/\{\\[^}]*\}/g, "")
    // A line break written as HTML.
    .replace(/<br\s*\/?>/gi, "\n");
  const open: string[] = [];
  let out = "";
  let position = 0;
  const tagPattern = /<(\/?)([A-Za-z][A-Za-z0-9]*)((?:\.[^\s.>]+)*)([^>]*)>/g;
  for (let match = tagPattern.exec(text); match; match = tagPattern.exec(text)) {
    out += escapeText(text.slice(position, match.index));
    position = match.index + match[0].length;
    const [, closing, rawName, classes, rest] = match;
    const name = rawName.toLowerCase();
    if (!ALLOWED_TAGS.has(name)) continue;
    if (closing) {
      const at = open.lastIndexOf(name);
      if (at === -1) continue;
      // Close what was opened inside it, then it.
      while (open.length > at) out += `</${open.pop()}>`;
      continue;
    }
    const classNames = classes
      .split(".")
      .filter((value) => /^[A-Za-z0-9_-]{1,40}$/.test(value))
      .slice(0, 8)
      .map((value) => `.${value}`)
      .join("");
    const annotation = name === "v" || name === "lang" ? cleanAnnotation(rest) : "";
    // <v> and <lang> need their annotation (the voice, the language); without it they are dropped.
    if ((name === "v" || name === "lang") && annotation === "") continue;
    out += `<${name}${classNames}${annotation ? ` ${annotation}` : ""}>`;
    open.push(name);
  }
  out += escapeText(text.slice(position));
  while (open.length > 0) out += `</${open.pop()}>`;
  // A blank line would end the cue in WebVTT; a cue with no words left is no cue.
  const cleaned = out
    .split("\n")
    .map((line) => line.replace(/[ \t]+$/, ""))
    .filter((line) => line.trim() !== "")
    .join("\n")
    .trim();
  return cleaned.replace(/<[^>]*>/g, "").trim() === "" ? "" : cleaned;
}

export function formatVttTime(milliseconds: number): string {
  const hours = Math.floor(milliseconds / 3_600_000);
  const minutes = Math.floor((milliseconds % 3_600_000) / 60_000);
  const seconds = Math.floor((milliseconds % 60_000) / 1000);
  const millis = milliseconds % 1000;
  const two = (value: number) => String(value).padStart(2, "0");
  return `${two(hours)}:${two(minutes)}:${two(seconds)}.${String(millis).padStart(3, "0")}`;
}

export function writeWebVtt(cues: readonly Cue[]): string {
  const body = cues
    .map(
      (cue) =>
        `${formatVttTime(cue.start)} --> ${formatVttTime(cue.end)}${cue.settings ? ` ${cue.settings}` : ""}\n${cue.text}`,
    )
    .join("\n\n");
  return `WEBVTT\n\n${body}\n`;
}
