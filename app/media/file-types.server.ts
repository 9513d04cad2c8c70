/**
 * What an uploaded file really is, from its first bytes ("magic numbers"),
 * checked against the extension it was sent with. A renamed executable or a
 * poster that is really a PDF is refused before anything is kept.
 */
export const MOVIE_EXTENSIONS = [".mp4", ".mov", ".mkv", ".3gp", ".wmv", ".avi", ".mpeg"] as const;
export const POSTER_EXTENSIONS = [".jpg", ".jpeg", ".png"] as const;
export type MovieExtension = (typeof MOVIE_EXTENSIONS)[number];
export type PosterExtension = (typeof POSTER_EXTENSIONS)[number];

export type DetectedKind = "iso-media" | "matroska" | "asf" | "avi" | "mpeg-ps" | "jpeg" | "png";

/** How many leading bytes `detectKind` needs to decide. */
export const SNIFF_BYTES = 16;

const ASF_GUID = Buffer.from("3026b2758e66cf11a6d900aa0062ce6c", "hex");
const PNG_SIGNATURE = Buffer.from("89504e470d0a1a0a", "hex");
/** The EBML header every Matroska (and WebM) file starts with. */
const EBML_MAGIC = Buffer.from("1a45dfa3", "hex");

export function detectKind(head: Uint8Array): DetectedKind | null {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (bytes.length >= 12 && bytes.toString("latin1", 4, 8) === "ftyp") return "iso-media";
  if (bytes.length >= 4 && bytes.subarray(0, 4).equals(EBML_MAGIC)) return "matroska";
  if (bytes.length >= 16 && bytes.subarray(0, 16).equals(ASF_GUID)) return "asf";
  if (bytes.length >= 12 && bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "AVI ")
    return "avi";
  if (
    bytes.length >= 4 &&
    bytes[0] === 0 &&
    bytes[1] === 0 &&
    bytes[2] === 1 &&
    (bytes[3] === 0xba || bytes[3] === 0xb3)
  )
    return "mpeg-ps";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return "png";
  return null;
}

const MOVIE_KINDS: Record<MovieExtension, DetectedKind[]> = {
  ".mp4": ["iso-media"],
  // QuickTime, what iPhones and editors write: the same box structure as MP4 (`ftyp` brand "qt  ").
  ".mov": ["iso-media"],
  // Matroska, what screen recorders and many editors write; which codecs it carries ffprobe tells after the upload.
  ".mkv": ["matroska"],
  ".3gp": ["iso-media"],
  ".wmv": ["asf"],
  ".avi": ["avi"],
  // Program streams (pack header) and elementary video streams (sequence header).
  ".mpeg": ["mpeg-ps"],
};

const POSTER_KINDS: Record<PosterExtension, DetectedKind[]> = {
  ".jpg": ["jpeg"],
  ".jpeg": ["jpeg"],
  ".png": ["png"],
};

export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf(".");
  return dot === -1 ? "" : filename.slice(dot).toLowerCase();
}

export type FileCheck =
  { ok: true; extension: string; kind: DetectedKind } | { ok: false; reason: "wrongExtension" | "contentMismatch" };

/** Check a movie or poster by its extension AND its first bytes. */
export function checkUploadedFile(field: "movie" | "poster", filename: string, head: Uint8Array): FileCheck {
  const extension = extensionOf(filename);
  const allowed: Record<string, DetectedKind[]> = field === "movie" ? MOVIE_KINDS : POSTER_KINDS;
  const kinds = allowed[extension];
  if (!kinds) return { ok: false, reason: "wrongExtension" };
  const kind = detectKind(head);
  if (!kind || !kinds.includes(kind)) return { ok: false, reason: "contentMismatch" };
  return { ok: true, extension, kind };
}
