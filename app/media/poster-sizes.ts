/**
 * The widths a title's poster is made in for the pages, and their public
 * addresses. The server writes and serves exactly these files
 * (posters.server.ts, the thumbnail route); the pages list them in `srcset`,
 * so a browser picks the width its screen needs. No server code here: the
 * components import it too.
 *
 * Each width exists as AVIF (about half the bytes of WebP for these images)
 * and as progressive JPEG for browsers without AVIF.
 */

export const POSTER_URL_PREFIX = "/api/files/thumbnail/";
export const SERIES_POSTER_URL_PREFIX = "/series-poster/";

/**
 * Whose poster files a page shows: a title's (`/api/files/thumbnail/`) or a
 * series' own (`/series-poster/`, the same names and sizes). A series without
 * a poster of its own shows its first episode's, a title.
 */
export type PosterOwner = {
  kind: "title" | "series";
  id: string;
  /** Raised when the poster is replaced (`movies.poster_version`): the addresses carry it, so no cached copy of the old one shows. */
  version?: number;
};

/** `?v=3` for a poster replaced three times; nothing for the first one (its addresses stay as they were). */
function versionQuery(owner: PosterOwner): string {
  return owner.version ? `?v=${owner.version}` : "";
}

const OWNER_PREFIX: Record<PosterOwner["kind"], string> = {
  title: POSTER_URL_PREFIX,
  series: SERIES_POSTER_URL_PREFIX,
};

export const SIZED_POSTERS = {
  /** Cards (3:2): two to a phone's row (≈170 CSS px), one carousel slide a phone wide, 300 px on a desktop. */
  card: { aspect: { width: 3, height: 2 }, widths: [200, 300, 450, 600] },
  /** The landing page's hero from tablets up (16:9; wide screens show a 21:8 band of it), and the player's poster. */
  hero: { aspect: { width: 16, height: 9 }, widths: [640, 960, 1280] },
  /** The same hero on phones, where it stands 4:5: cropped for that shape instead of a 16:9 image mostly cut away. */
  tall: { aspect: { width: 4, height: 5 }, widths: [360, 540, 720] },
} as const;

export type SizedPosterVariant = keyof typeof SIZED_POSTERS;
export const SIZED_POSTER_VARIANTS = Object.keys(SIZED_POSTERS) as SizedPosterVariant[];
export const SIZED_POSTER_FORMATS = ["avif", "jpg"] as const;
export type SizedPosterFormat = (typeof SIZED_POSTER_FORMATS)[number];

export function sizedPosterHeight(variant: SizedPosterVariant, width: number): number {
  const { aspect } = SIZED_POSTERS[variant];
  return Math.round((width * aspect.height) / aspect.width);
}

export function isSizedPosterWidth(variant: SizedPosterVariant, width: number): boolean {
  return (SIZED_POSTERS[variant].widths as readonly number[]).includes(width);
}

/**
 * `<id>-card.jpg`: the public name of a fixed-size poster, card (300×200) or
 * hero (1280×720); `.webp` for titles made before sized posters.
 */
export function fixedPosterName(id: string, variant: "card" | "hero" = "card", format: "jpg" | "webp" = "jpg"): string {
  return `${id}-${variant}.${format}`;
}

/** The fixed-size poster of an owner's card or hero (JPEG unless said): the `src` for browsers without srcset, and the names old clients use. */
export function fixedPosterUrl(owner: PosterOwner, variant: "card" | "hero", format: "jpg" | "webp" = "jpg"): string {
  return `${OWNER_PREFIX[owner.kind]}${fixedPosterName(owner.id, variant, format)}${versionQuery(owner)}`;
}

/** `<movieId>-card-300.avif`: the public name of one size of one variant. */
export function sizedPosterName(
  movieId: string,
  variant: SizedPosterVariant,
  width: number,
  format: SizedPosterFormat,
): string {
  return `${movieId}-${variant}-${width}.${format}`;
}

export function sizedPosterUrl(
  owner: PosterOwner,
  variant: SizedPosterVariant,
  width: number,
  format: SizedPosterFormat,
): string {
  return `${OWNER_PREFIX[owner.kind]}${sizedPosterName(owner.id, variant, width, format)}${versionQuery(owner)}`;
}

/**
 * The format for a poster that cannot have a `<picture>` (the player's
 * `poster`): AVIF when the page's request said the browser takes it (Chromium
 * and Firefox list image/avif in a page request's Accept), else JPEG. The same
 * 960-px image is 9 kB as AVIF and 37 kB as JPEG.
 */
export function posterFormatFor(accept: string | null): SizedPosterFormat {
  return /(^|,)\s*image\/avif\s*(;|,|$)/i.test(accept ?? "") ? "avif" : "jpg";
}

/** Every width of a variant in one format, as a `srcset` value ("… 200w, … 300w"). */
export function posterSrcSet(owner: PosterOwner, variant: SizedPosterVariant, format: SizedPosterFormat): string {
  return SIZED_POSTERS[variant].widths
    .map((width) => `${sizedPosterUrl(owner, variant, width, format)} ${width}w`)
    .join(", ");
}
