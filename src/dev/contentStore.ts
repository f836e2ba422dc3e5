// Dev-mode content: the same content `loadContent` produces, kept in memory and updated one file at a time.
// In: the site config and file changes below content/. Out: the content object, its problems, and a version
// per collection that rises whenever that collection's value changes (pages record the versions they read).
// Parsed files are cached, so a new config (new schemas) re-validates everything without re-reading it.
import type { CollectionConfig, Content, Entry, Message, SiteConfig } from '../types.ts';
import { sortMessages } from '../errors.ts';
import { matchFiles } from '../content/glob.ts';
import {
  collectionPatterns, collectionSetErrors, collectionValue, crossFileIssues, listContentFiles, makeEntry,
} from '../content/load.ts';
import { parseContentFile, type ParsedFile } from '../content/parse.ts';
import { markdownKey, type MarkdownExtensions } from '../content/markdown.ts';
import { markdownExtensions } from '../plugins.ts';

export type ChangeKind = 'add' | 'change' | 'unlink';

interface CachedFile {
  parsed?: ParsedFile;
  errors: Message[];
}

interface CollectionState {
  files: string[];
  entries: Map<string, { entry?: Entry; errors: Message[] }>;
  setErrors: Message[];
  version: number;
}

export interface ContentStore {
  /** Takes a new config (after the site module recompiled): re-matches and re-validates every file. */
  configure(config: SiteConfig): Promise<void>;
  /** Applies changes to files below content/ (paths relative to content/); returns the collections that changed. */
  update(changes: Map<string, ChangeKind>): Promise<string[]>;
  readonly content: Content;
  /** Every content problem, sorted; cross-file checks run only when every file is valid, as in a build. */
  errors(): Message[];
  version(collection: string): number;
}

export async function createContentStore(root: string): Promise<ContentStore> {
  let all = await listContentFiles(root);
  const cache = new Map<string, CachedFile>();
  const collections = new Map<string, CollectionState>();
  let config: SiteConfig | null = null;
  let content: Content = {};
  let crossErrors: Message[] = [];
  let versionCounter = 0;
  let extensions: MarkdownExtensions = [];

  async function read(rel: string): Promise<CachedFile> {
    let c = cache.get(rel);
    if (!c) {
      const parsed = await parseContentFile(root, `content/${rel}`, extensions);
      c = 'source' in parsed && !parsed.errors.length ? { parsed, errors: [] } : { errors: parsed.errors };
      cache.set(rel, c);
    }
    return c;
  }

  async function entryFor(col: CollectionConfig, rel: string) {
    const c = await read(rel);
    if (!c.parsed) return { errors: c.errors };
    // The parser renders a Markdown body once per read of the file (the HTML does not depend on the schema).
    return makeEntry(col, rel, c.parsed);
  }

  /** Rebuilds one collection's value; `dirty` are files whose cached entries are stale. */
  async function refresh(name: string, col: CollectionConfig, dirty: Set<string> | null): Promise<boolean> {
    const files = matchFiles(all, collectionPatterns(col));
    const prev = collections.get(name);
    const sameFiles = !!prev && prev.files.length === files.length && prev.files.every((f, i) => f === files[i]);
    if (prev && sameFiles && dirty && !files.some((f) => dirty.has(f))) return false;
    // Unchanged files keep their entry objects, which is what makes comparing routes cheap downstream.
    const entries = new Map<string, { entry?: Entry; errors: Message[] }>();
    const stale: string[] = [];
    for (const f of files) {
      const kept = dirty && prev?.entries.get(f);
      if (kept && !dirty.has(f)) entries.set(f, kept); else stale.push(f);
    }
    await Promise.all(stale.map(async (f) => { entries.set(f, await entryFor(col, f)); }));
    collections.set(name, { files, entries, setErrors: collectionSetErrors(name, col, files), version: ++versionCounter });
    content = { ...content, [name]: files.length ? collectionValue(col, files.map((f) => entries.get(f)!.entry)) : (col.single ? undefined : []) };
    return true;
  }

  function fileErrors(): Message[] {
    const out: Message[] = [];
    for (const c of collections.values()) {
      out.push(...c.setErrors);
      for (const e of c.entries.values()) out.push(...e.errors);
    }
    return out;
  }

  async function checkAcrossFiles(): Promise<void> {
    crossErrors = config && fileErrors().length === 0 ? await crossFileIssues(root, config, content) : [];
  }

  return {
    get content() { return content; },
    version: (name) => collections.get(name)?.version ?? 0,
    errors: () => sortMessages([...fileErrors(), ...crossErrors]),

    async configure(next) {
      config = next;
      // Another Markdown extension list parses bodies differently: Markdown files are read again.
      const nextExtensions = markdownExtensions(next.plugins);
      if (markdownKey(nextExtensions) !== markdownKey(extensions)) for (const rel of [...cache.keys()]) if (rel.endsWith('.md')) cache.delete(rel);
      extensions = nextExtensions;
      collections.clear();
      content = {};
      for (const [name, col] of Object.entries(next.collections)) await refresh(name, col, null);
      await checkAcrossFiles();
    },

    async update(changes) {
      let listChanged = false;
      for (const [rel, kind] of changes) {
        cache.delete(rel);
        if (kind !== 'change') listChanged = true;
      }
      if (listChanged) all = await listContentFiles(root);
      if (!config) return [];
      const dirty = new Set(changes.keys());
      const changed: string[] = [];
      for (const [name, col] of Object.entries(config.collections)) if (await refresh(name, col, dirty)) changed.push(name);
      if (changed.length) await checkAcrossFiles();
      return changed;
    },
  };
}
