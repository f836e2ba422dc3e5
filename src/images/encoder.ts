// The image encoder: sharp in a child process of its own, started on the first variant to encode (a warm
// build starts none). libvips allocates from many threads, and glibc gives each thread an arena of its own
// that keeps freed memory: in the build's process, 200 photos took the peak RSS from ~250 MB to 700+ MB.
// The child runs with MALLOC_ARENA_MAX=2 (read by glibc at start only, hence a process; measured on 12
// photos of the image bench: 661 → 378 MB for the same work, no slower), and the build's own memory stays
// the build's. Its blocks of 256 KB and more (rows and frames of pixels) are mapped from the system and given
// back when freed (MALLOC_MMAP_THRESHOLD_: glibc otherwise raises that threshold to the largest block freed,
// and a photo's buffers then stay in its heap; measured on 9 photos of the image bench: 303-331 → 242-249 MB,
// the same CPU time and bytes). The child reads the source and writes the variant itself; only paths and
// options cross.
// One libvips thread per image, as sharp chooses on glibc without MALLOC_ARENA_MAX (with it set, sharp
// would take one per core): the cores are used by encoding images side by side (store.ts slots), and the
// bytes are the same as sharp's in this process.
// When the child cannot start, sharp runs in this process as before.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { engineEnv } from '../core/env.ts';

export type EncodeFormat = 'avif' | 'webp' | 'jpeg' | 'png';

export interface EncodeJob {
  /** The source file (absolute). */
  file: string;
  /** The width to resize to, or null for the source's own. */
  width: number | null;
  /** With a width: the height of a crop to that size (the middle of the image kept), or null for none. */
  height: number | null;
  format: EncodeFormat;
  options: object;
  maxPixels: number;
  /** Where to write the variant (absolute); without it, its bytes are returned. */
  out?: string;
}

// The child's program (CommonJS, run with `node -e`): one job per message, answered by id. It ends when the
// build's process does (its IPC channel closes).
const CHILD = `
const sharp = require(process.env.SITEGEN_SHARP);
sharp.concurrency(1);
process.on('disconnect', () => process.exit(0));
process.on('message', async (m) => {
  if (m.type === 'rss') { process.send({ id: m.id, rssKB: process.resourceUsage().maxRSS }); return; }
  try {
    let img = sharp(m.file, { limitInputPixels: m.maxPixels, failOn: 'truncated', animated: false }).rotate();
    if (m.width !== null) img = img.resize(m.height !== null ? { width: m.width, height: m.height, fit: 'cover' } : { width: m.width });
    img = img[m.format](m.options);
    if (m.out) { await img.toFile(m.out); process.send({ id: m.id }); }
    else process.send({ id: m.id, bytes: await img.toBuffer() });
  } catch (e) {
    process.send({ id: m.id, error: String((e && e.message) || e) });
  }
});
`;

type Reply = { id: number; error?: string; bytes?: Uint8Array; rssKB?: number };

let child: ChildProcess | null = null;
let broken = false;
let nextId = 0;
const pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();

type Sharp = typeof import('sharp').default;
let sharpModule: Promise<Sharp> | null = null;
/** sharp in this process: the fallback, and `sitegen check`'s small decodes. */
export const loadSharp = () => (sharpModule ??= import('sharp').then((m) => m.default));

/** The child keeps the build's process alive only while it has work. */
function hold(on: boolean): void {
  const c = child as (ChildProcess & { channel?: { ref(): void; unref(): void } }) | null;
  if (!c) return;
  if (on) { c.ref(); c.channel?.ref(); } else { c.unref(); c.channel?.unref(); }
}

function start(): ChildProcess | null {
  if (child || broken) return child;
  let sharpPath: string;
  try { sharpPath = createRequire(import.meta.url).resolve('sharp'); } catch { broken = true; return null; }
  try {
    const env = engineEnv(); // (not the build's view of process.env: this copy is no read by the site)
    const c = spawn(process.execPath, ['-e', CHILD], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
      env: { ...env, MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? '2', MALLOC_MMAP_THRESHOLD_: env.MALLOC_MMAP_THRESHOLD_ ?? '262144', SITEGEN_SHARP: sharpPath, NODE_OPTIONS: '' },
      windowsHide: true,
    });
    c.on('message', (r: Reply) => {
      const p = pending.get(r.id);
      if (!p) return;
      pending.delete(r.id);
      if (!pending.size) hold(false);
      p.resolve(r);
    });
    const fail = (why: string) => {
      if (child === c) child = null;
      const jobs = [...pending.values()];
      pending.clear();
      for (const p of jobs) p.reject(new Error(why));
    };
    c.on('error', (e) => { broken = true; fail(`the image encoder could not run: ${e.message}`); });
    c.on('exit', (code, signal) => fail(`the image encoder stopped (${signal ?? `exit code ${code}`})`));
    child = c;
    hold(false);
    return c;
  } catch {
    broken = true;
    return null;
  }
}

function ask(message: object): Promise<Reply> | null {
  const c = start();
  if (!c) return null;
  const id = ++nextId;
  return new Promise<Reply>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    hold(true);
    c.send({ id, ...message }, (e) => {
      if (!e) return;
      pending.delete(id);
      if (!pending.size) hold(false);
      reject(e);
    });
  });
}

/** Encodes one variant: written to `job.out` (resolves with nothing), or its bytes. A decode failure rejects with sharp's message. */
export async function encode(job: EncodeJob): Promise<Uint8Array | undefined> {
  const asked = ask({ type: 'encode', ...job });
  if (asked) {
    const r = await asked;
    if (r.error !== undefined) throw new Error(r.error);
    return r.bytes ? new Uint8Array(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength) : undefined;
  }
  const sharp = await loadSharp();
  let img = sharp(job.file, { limitInputPixels: job.maxPixels, failOn: 'truncated', animated: false }).rotate();
  if (job.width !== null) img = img.resize(job.height !== null ? { width: job.width, height: job.height, fit: 'cover' } : { width: job.width });
  img = (img[job.format] as (o: object) => typeof img).call(img, job.options);
  if (job.out) { await img.toFile(job.out); return undefined; }
  return img.toBuffer();
}

/** The encoder process's peak RSS in MB, when one ran (for SITEGEN_DEBUG_MEM). */
export async function encoderPeakRssMB(): Promise<number | null> {
  if (!child) return null;
  const r = await ask({ type: 'rss' })?.catch(() => null);
  return r?.rssKB ? Math.round(r.rssKB / 1024) : null;
}
