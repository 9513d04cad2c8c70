/**
 * Whether the bytes of one fragment of a fragmented MP4 (what one HLS
 * segment of ours is: `moof` then `mdat`) are whole: the top-level boxes add
 * up to exactly its length, each is a kind a fragment holds, and the sample
 * sizes its `trun` boxes list add up to what its `mdat` boxes carry. The
 * player checks every segment before it hands it to the browser, which
 * otherwise takes a damaged or truncated range without a word and freezes
 * the picture on it. Pure and small: it runs in the browser on every
 * segment.
 */

const TOP_LEVEL = new Set(["styp", "sidx", "prft", "emsg", "moof", "mdat", "free", "skip"]);

type Box = { type: string; start: number; body: number; end: number };

/** The boxes between `from` and `to`, or null when one runs past `to` or is malformed. */
function boxes(view: DataView, from: number, to: number): Box[] | null {
  const found: Box[] = [];
  for (let at = from; at < to;) {
    if (at + 8 > to) return null;
    let size = view.getUint32(at);
    let body = at + 8;
    if (size === 1) {
      if (at + 16 > to) return null;
      size = view.getUint32(at + 8) * 2 ** 32 + view.getUint32(at + 12);
      body = at + 16;
    }
    if (size < body - at || at + size > to) return null;
    let type = "";
    for (let index = 4; index < 8; index++) type += String.fromCharCode(view.getUint8(at + index));
    found.push({ type, start: at, body, end: at + size });
    at += size;
  }
  return found;
}

/** The bytes of every sample a `moof` lists, or null when it cannot be read (a damaged box). */
function sampleBytes(view: DataView, moof: Box): number | null {
  const children = boxes(view, moof.body, moof.end);
  if (!children) return null;
  let total = 0;
  for (const traf of children.filter((box) => box.type === "traf")) {
    const parts = boxes(view, traf.body, traf.end);
    const tfhd = parts?.find((box) => box.type === "tfhd");
    if (!parts || !tfhd || tfhd.end - tfhd.body < 8) return null;
    // tfhd: version and flags, track_ID, then the optional fields its flags name (ISO/IEC 14496-12 8.8.7).
    const tfhdFlags = view.getUint32(tfhd.body) & 0xffffff;
    let field = tfhd.body + 8;
    if (tfhdFlags & 0x1) field += 8;
    if (tfhdFlags & 0x2) field += 4;
    if (tfhdFlags & 0x8) field += 4;
    const defaultSize = tfhdFlags & 0x10 && field + 4 <= tfhd.end ? view.getUint32(field) : null;
    for (const trun of parts.filter((box) => box.type === "trun")) {
      if (trun.end - trun.body < 8) return null;
      // trun (8.8.8): version and flags, sample_count, then per sample the fields its flags name.
      const flags = view.getUint32(trun.body) & 0xffffff;
      const count = view.getUint32(trun.body + 4);
      let at = trun.body + 8 + (flags & 0x1 ? 4 : 0) + (flags & 0x4 ? 4 : 0);
      const perSample = [0x100, 0x200, 0x400, 0x800].filter((bit) => flags & bit).length * 4;
      if (at + count * perSample > trun.end) return null;
      if (!(flags & 0x200)) {
        if (defaultSize === null) return null;
        total += defaultSize * count;
        continue;
      }
      const sizeAt = flags & 0x100 ? 4 : 0;
      for (let sample = 0; sample < count; sample++, at += perSample) total += view.getUint32(at + sizeAt);
    }
  }
  return total;
}

export function fragmentIsWhole(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const top = boxes(view, 0, bytes.byteLength);
  if (!top || !top.every((box) => TOP_LEVEL.has(box.type))) return false;
  const moofs = top.filter((box) => box.type === "moof");
  const mdats = top.filter((box) => box.type === "mdat");
  if (moofs.length === 0 || mdats.length === 0) return false;
  let listed = 0;
  for (const moof of moofs) {
    const bytesListed = sampleBytes(view, moof);
    if (bytesListed === null) return false;
    listed += bytesListed;
  }
  return listed === mdats.reduce((sum, box) => sum + (box.end - box.body), 0);
}
