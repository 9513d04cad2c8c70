import fs from "node:fs";
import { removeQuietly, temporaryPath, writeAtomically } from "~/media/atomic-files.server";
import { BROWSER_H264_ARGS, runFfmpeg } from "~/media/ffmpeg.server";
import { loadSharp } from "~/media/sharp.server";

/**
 * The pictures and films of the demo catalogue, made on the spot so the
 * repository ships no binary media: category tiles and posters are SVG
 * rendered by sharp, films are ffmpeg's synthetic sources (lavfi) encoded
 * exactly as uploads will be served: H.264/AAC MP4, yuv420p, faststart.
 */

export const DEMO_VIDEO_SIZE = { width: 640, height: 360 } as const;
const FRAME_RATE = 25;

// Fonts most Linux images have (DejaVu comes with fontconfig); the generic family is the last resort.
const FONT_FAMILY = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";

function escapeXml(text: string): string {
  return text.replace(
    /[<>&'"]/g,
    (char) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[char]!,
  );
}

/** A font size at which `text` fits `maxWidth`, from DejaVu Sans Bold's average glyph width (about 0.64 em). */
function fittingFontSize(text: string, maxWidth: number, largest: number): number {
  return Math.min(largest, Math.floor(maxWidth / (Math.max(text.length, 1) * 0.64)));
}

export type TileColors = readonly [from: string, to: string];

/** A category tile (600×400 JPEG): diagonal gradient, soft rings, the category's name. */
export async function writeCategoryTile(
  name: string,
  colors: TileColors,
  destination: string,
  tmpDir: string,
): Promise<void> {
  const width = 600;
  const height = 400;
  const fontSize = fittingFontSize(name, 500, 64);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${colors[0]}"/>
      <stop offset="1" stop-color="${colors[1]}"/>
    </linearGradient>
    <linearGradient id="shade" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0.45" stop-color="#000" stop-opacity="0"/>
      <stop offset="1" stop-color="#000" stop-opacity="0.55"/>
    </linearGradient>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#bg)"/>
  <circle cx="500" cy="90" r="170" fill="none" stroke="#fff" stroke-opacity="0.16" stroke-width="28"/>
  <circle cx="500" cy="90" r="90" fill="#fff" fill-opacity="0.10"/>
  <circle cx="80" cy="420" r="140" fill="none" stroke="#fff" stroke-opacity="0.10" stroke-width="18"/>
  <rect width="${width}" height="${height}" fill="url(#shade)"/>
  <text x="44" y="62" font-family="${FONT_FAMILY}" font-size="20" font-weight="700" letter-spacing="6" fill="#fff" fill-opacity="0.85">KALLO</text>
  <rect x="44" y="${height - 48 - fontSize - 22}" width="56" height="6" rx="3" fill="#fff"/>
  <text x="44" y="${height - 48}" font-family="${FONT_FAMILY}" font-size="${fontSize}" font-weight="700" fill="#fff">${escapeXml(name)}</text>
</svg>`;
  const sharp = await loadSharp();
  await writeAtomically(destination, tmpDir, (temporaryFile) =>
    sharp(Buffer.from(svg)).jpeg({ quality: 85, mozjpeg: true }).toFile(temporaryFile),
  );
}

/** The lower-third title shown over the first seconds of a demo film (transparent PNG, video-sized). */
async function titleCardPng(title: string, subtitle: string, accent: string): Promise<Buffer> {
  const { width, height } = DEMO_VIDEO_SIZE;
  const titleSize = fittingFontSize(title, 520, 40);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs>
    <linearGradient id="band" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#000" stop-opacity="0.78"/>
      <stop offset="1" stop-color="#000" stop-opacity="0"/>
    </linearGradient>
  </defs>
  <rect x="0" y="${height - 122}" width="${width}" height="96" fill="url(#band)"/>
  <rect x="32" y="${height - 108}" width="6" height="68" fill="${accent}"/>
  <text x="52" y="${height - 68}" font-family="${FONT_FAMILY}" font-size="${titleSize}" font-weight="700" fill="#fff">${escapeXml(title)}</text>
  <text x="54" y="${height - 42}" font-family="${FONT_FAMILY}" font-size="17" fill="#fff" fill-opacity="0.85">${escapeXml(subtitle)}</text>
</svg>`;
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export type DemoFilmSpec = {
  title: string;
  /** Shown under the title, for example the category. */
  subtitle: string;
  accent: string;
  /** A lavfi source chain drawing 640×360 frames, for example "testsrc2=s=640x360:r=25,hue=h=40". */
  visual: string;
  /** Base pitch of the soundtrack's two-note chord, in hertz. */
  toneHz: number;
  durationSeconds: number;
};

/** The seconds at which the title card leaves the picture. */
export function titleCardSeconds(durationSeconds: number): number {
  return Math.min(3, durationSeconds / 2);
}

/** Encode a demo film to `destination` (written in `tmpDir` and renamed into place). */
export async function writeDemoFilm(spec: DemoFilmSpec, destination: string, tmpDir: string): Promise<void> {
  const duration = spec.durationSeconds;
  const fadeOutStart = (duration - 0.6).toFixed(2);
  const card = temporaryPath(tmpDir, "title-card.png");
  try {
    await fs.promises.writeFile(card, await titleCardPng(spec.title, spec.subtitle, spec.accent));
    // A fifth over the base tone, with a slow swell, on two slightly different channels.
    const f = spec.toneHz;
    const left = `0.10*sin(2*PI*${f}*t)*(0.7+0.3*sin(2*PI*0.5*t))+0.05*sin(2*PI*${f * 1.5}*t)`;
    const right = `0.10*sin(2*PI*${f * 1.002}*t)*(0.7+0.3*sin(2*PI*0.5*t+1))+0.05*sin(2*PI*${f * 1.5}*t)`;
    const filters = [
      `[0:v]format=yuv420p,setsar=1[picture]`,
      `[picture][1:v]overlay=0:0:enable='lt(t,${titleCardSeconds(duration)})'[titled]`,
      `[titled]fade=t=in:st=0:d=0.5,fade=t=out:st=${fadeOutStart}:d=0.6,format=yuv420p[v]`,
      `[2:a]afade=t=in:st=0:d=0.5,afade=t=out:st=${fadeOutStart}:d=0.6[a]`,
    ].join(";");
    await writeAtomically(destination, tmpDir, (temporaryFile) =>
      runFfmpeg(
        [
          "-f",
          "lavfi",
          "-i",
          spec.visual,
          "-i",
          card,
          "-f",
          "lavfi",
          "-i",
          `aevalsrc=exprs='${left}|${right}':s=48000:d=${duration}`,
          "-filter_complex",
          filters,
          "-map",
          "[v]",
          "-map",
          "[a]",
          "-t",
          String(duration),
          "-r",
          String(FRAME_RATE),
          ...BROWSER_H264_ARGS,
          "-g",
          String(FRAME_RATE * 2),
          "-c:a",
          "aac",
          "-b:a",
          "96k",
          "-ar",
          "48000",
          "-ac",
          "2",
          "-movflags",
          "+faststart",
          temporaryFile,
        ],
        { timeoutMs: 120_000 },
      ),
    );
  } finally {
    removeQuietly(card);
  }
}

/**
 * A 1280×720 poster: a frame of the film under a dark gradient, with the
 * title, its category and the service's name. Text stays inside the central
 * 3:2 area, so the 300×200 card crop keeps all of it.
 */
export async function composeDemoPoster(
  frame: Buffer,
  details: { title: string; category: string; accent: string },
): Promise<Buffer> {
  const width = 1280;
  const height = 720;
  const left = 150;
  const titleSize = fittingFontSize(details.title, 960, 96);
  const label = details.category.toUpperCase();
  const labelWidth = Math.round(label.length * 20 + 44);
  const overlay = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs>
    <linearGradient id="side" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#000" stop-opacity="0.85"/>
      <stop offset="0.75" stop-color="#000" stop-opacity="0.15"/>
      <stop offset="1" stop-color="#000" stop-opacity="0"/>
    </linearGradient>
    <linearGradient id="bottom" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0.4" stop-color="#000" stop-opacity="0"/>
      <stop offset="1" stop-color="#000" stop-opacity="0.75"/>
    </linearGradient>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#side)"/>
  <rect width="${width}" height="${height}" fill="url(#bottom)"/>
  <text x="${left}" y="110" font-family="${FONT_FAMILY}" font-size="30" font-weight="700" letter-spacing="10" fill="#fff" fill-opacity="0.9">KALLO</text>
  <rect x="${left}" y="430" width="${labelWidth}" height="46" rx="23" fill="${details.accent}"/>
  <text x="${left + 22}" y="462" font-family="${FONT_FAMILY}" font-size="24" font-weight="700" letter-spacing="2" fill="#fff">${escapeXml(label)}</text>
  <text x="${left}" y="${540 + Math.round(titleSize * 0.35)}" font-family="${FONT_FAMILY}" font-size="${titleSize}" font-weight="700" fill="#fff">${escapeXml(details.title)}</text>
</svg>`;
  const sharp = await loadSharp();
  return sharp(frame)
    .resize(width, height, { fit: "cover" })
    .modulate({ saturation: 1.1 })
    .composite([{ input: Buffer.from(overlay), top: 0, left: 0 }])
    .png()
    .toBuffer();
}
