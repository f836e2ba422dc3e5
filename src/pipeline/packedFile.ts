// packedFile: the layout of the engine's packed records (upToDate.ts's build record, pagePack.ts's page
// record): one line of JSON, the header, whose `sizes` give the byte length of each raw part after it, in
// order. Texts, NUL-joined lists and typed-array bytes are read from the parts without one JSON text of the
// whole.

/** The header (not yet checked past its `sizes`) and the `parts` raw parts after it; null when the bytes
 *  are not that layout (no header line, not `parts` sizes, sizes that do not add up to the rest). */
export function splitPacked(bytes: Buffer, parts: number): { header: any; parts: Buffer[] } | null {
  const nl = bytes.indexOf(10); // JSON.stringify writes no raw newline
  if (nl < 0) return null;
  let header: any;
  try { header = JSON.parse(bytes.toString('utf8', 0, nl)); } catch { return null; }
  const sizes: unknown = header?.sizes;
  if (!Array.isArray(sizes) || sizes.length !== parts || !sizes.every((n) => Number.isInteger(n) && n >= 0)) return null;
  if (sizes.reduce((a: number, n: number) => a + n, 0) !== bytes.length - nl - 1) return null;
  let at = nl + 1;
  return { header, parts: sizes.map((n: number) => bytes.subarray(at, (at += n))) };
}

/** The `n` numbers `b` holds (copied unless aligned: a typed array starts at a multiple of its element's
 *  size); null: not `n` of them. */
export function numbers<T extends Float64Array | Uint32Array>(Type: { new (b: ArrayBuffer, o: number, n: number): T; BYTES_PER_ELEMENT: number }, b: Buffer, n: number): T | null {
  const size = Type.BYTES_PER_ELEMENT;
  if (b.length !== n * size) return null;
  if (b.byteOffset % size) { const c = new Uint8Array(b.length); c.set(b); return new Type(c.buffer, 0, n); }
  return new Type(b.buffer as ArrayBuffer, b.byteOffset, n);
}
