// The content cache: what parsing each content file gave (YAML data, Markdown HTML) in earlier builds, by
// the file's size and mtime (see ParseCache in content/load.ts), so a build re-parses only files that
// changed. Kept in <root>/.sitegen/cache/content/, chunks written with v8.serialize
// (fast for large strings), tagged with the versions of everything that shapes a parse — sitegen's engine
// code and the marked, yaml and js-yaml packages — so an upgrade of any of them starts it afresh.
// With the cache setting off (`build --no-cache`) it is neither read nor written.
import fsp from 'node:fs/promises';
import path from 'node:path';
import v8 from 'node:v8';
import { createHash } from 'node:crypto';
import { ENGINE_DIR, PACKAGE_DIR } from '../site/index.ts';
import { engineSettings } from '../core/settings.ts';
import { hashFolder, packageVersions, replaceFolder } from '../cache/index.ts';
import { siteCachePath } from '../cache/registry.ts';
import type { ParseCache, ParseOutput } from './load.ts';
import { validOutput, validUnder } from './validCache.ts';

/** A kept schema output: the parse's position in the cache, the schema key, the output. */
type Output = [number, string, unknown];

/** Changes with any file of the engine (not only its parser: the parallel loader passes results on too). */
function version(): string {
  const hash = createHash('sha1').update(process.versions.v8);
  hashFolder(hash, ENGINE_DIR);
  for (const v of packageVersions(PACKAGE_DIR, ['marked', 'yaml', 'js-yaml'])) hash.update(`${v}\n`);
  return hash.digest('hex');
}

// In the site's own state folder (git-ignored, like server plugins' data): it goes when the site goes.
const dirOf = (root: string) => siteCachePath(root, 'content');

/** Entries per chunk file: reading or writing one never needs a buffer of the whole cache (60 MB at 10k pages). */
const CHUNK = 500;

/** A chunk's bodies are one string, each entry's HTML a slice of it (V8 keeps a slice as a reference, not a
 *  copy): 500 bodies read as one string, never copied by the young generation's collector, rather than as
 *  500 strings each copied as it survives (10,000 pages: ~15% less CPU reading the cache). */
const FORMAT = 3;
interface Chunk { entries: [key: string, output: ParseOutput, start: number, end: number][]; html: string }

function toChunk(part: [string, ParseOutput][]): Chunk {
  let html = '';
  const entries = part.map(([key, v]): Chunk['entries'][number] => {
    if (v.html === undefined) return [key, v, -1, -1];
    const { html: h, ...rest } = v;
    const start = html.length;
    html += h;
    return [key, rest, start, html.length];
  });
  return { entries, html };
}

function fromChunk(c: Chunk): [string, ParseOutput][] {
  return c.entries.map(([key, v, start, end]) => {
    if (start >= 0) v.html = c.html.slice(start, end);
    return [key, v];
  });
}

/** The chunks a cache was read from, each with its entries as read: a chunk whose entries a save would
 *  write again, the same values in the same order, is kept as it is instead (one file changed: one chunk). */
const chunksOf = new WeakMap<ParseCache, { file: string; entries: [string, ParseOutput][] }[]>();

/** The site's cache (empty when there is none or it is stale), or undefined when caching is off. */
export async function openContentCache(root: string): Promise<ParseCache | undefined> {
  if (!engineSettings().cache) return undefined;
  const cache: ParseCache = new Map();
  const chunks: { file: string; entries: [string, ParseOutput][] }[] = [];
  try {
    const dir = dirOf(root);
    const index = JSON.parse(await fsp.readFile(path.join(dir, 'index.json'), 'utf8')) as { version: string; format?: number; chunks: string[]; valid?: Record<string, number[]>; outputs?: string };
    if (index.version !== version() || index.format !== FORMAT) return cache;
    for (const chunk of index.chunks) {
      const entries = fromChunk(v8.deserialize(await fsp.readFile(path.join(dir, chunk))) as Chunk);
      for (const [key, value] of entries) cache.set(key, value);
      chunks.push({ file: path.join(dir, chunk), entries });
    }
    // Which parses passed their schemas as they are, under which key (validCache.ts), by position.
    const values = [...cache.values()];
    for (const [key, at] of Object.entries(index.valid ?? {})) for (const i of at) if (values[i]) validUnder.set(values[i], key);
    // The schema outputs kept of the others (validCache.ts validOutput), by position.
    if (index.outputs) for (const [i, key, data] of v8.deserialize(await fsp.readFile(path.join(dir, index.outputs))) as Output[]) if (values[i]) validOutput.set(values[i], { key, data });
  } catch {
    cache.clear(); // none yet, or unreadable: start afresh
    return cache;
  }
  chunksOf.set(cache, chunks);
  return cache;
}

/** Writes the cache as a new folder of chunks and swaps it in, so a concurrent build reads all old or all new.
 *  `from`: the cache this one was made from (openContentCache), whose unchanged chunks are linked, not written. */
export async function saveContentCache(root: string, entries: ParseCache, from?: ParseCache): Promise<void> {
  const old = from && chunksOf.get(from);
  // Serialized now, before the caller goes on: an entry's data may be the cached value itself
  // (validCache.ts), which the site's routes() could change once it has it. Kept chunks are linked.
  const all = [...entries];
  const valid: Record<string, number[]> = {};
  const outputs: Output[] = [];
  all.forEach(([, v], i) => { const k = validUnder.get(v); if (k) (valid[k] ??= []).push(i); const o = validOutput.get(v); if (o) outputs.push([i, o.key, o.data]); });
  const outputBytes = outputs.length ? v8.serialize(outputs) : null;
  const parts: ({ link: string } | { bytes: Buffer })[] = [];
  for (let i = 0; i < all.length; i += CHUNK) {
    const part = all.slice(i, i + CHUNK);
    const was = old?.[parts.length];
    const same = !!was && was.entries.length === part.length && part.every(([k, v], j) => was.entries[j][0] === k && was.entries[j][1] === v);
    // Kept: the chunk it was read from (its bytes are the values as read), linked; else written anew.
    parts.push(same ? { link: was.file } : { bytes: v8.serialize(toChunk(part)) });
  }
  await replaceFolder(dirOf(root), async (tmp) => {
    const chunks: string[] = [];
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      parts[i] = null!; // each chunk's bytes go once written: the build goes on meanwhile (100,000 pages: ~56 MB)
      const name = `${chunks.length}.v8`;
      const to = path.join(tmp, name);
      if ('bytes' in p) await fsp.writeFile(to, p.bytes);
      else await fsp.link(p.link, to).catch(() => fsp.copyFile(p.link, to));
      chunks.push(name);
    }
    if (outputBytes) await fsp.writeFile(path.join(tmp, 'outputs.v8'), outputBytes);
    await fsp.writeFile(path.join(tmp, 'index.json'), JSON.stringify({ version: version(), format: FORMAT, chunks, valid, ...(outputBytes ? { outputs: 'outputs.v8' } : {}) }));
  });
}
