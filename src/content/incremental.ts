// The incremental form of the content loader (load.ts), for `sitegen dev`: the same listing (links out of
// the site refused), the same plan of which file feeds which collection, the same per-file parse
// (`parseItem`, with the plugins' Markdown extensions), validation (`makeEntry`), collection values and
// cross-file checks — kept in memory and updated one file at a time. Out: the content object, its problems,
// and a version per collection that rises whenever that collection's value changes (dev pages record the
// versions they read). Parsed files are kept, so a new config (new schemas) re-validates everything without
// re-reading it; a new Markdown extension list re-reads the Markdown files.
import type { CollectionConfig, Content, Entry, Message, SiteConfig } from '../types.ts';
import { sortMessages } from '../errors.ts';
import { collectionSetErrors, collectionValue, crossFileIssues, listAndPlan, makeEntry, parseItem, type ContentPlan } from './load.ts';
import type { ParsedFile } from './parse.ts';
import { markdownKey } from './markdown.ts';
import { markdownExtensions } from '../plugins.ts';

export type ChangeKind = 'add' | 'change' | 'unlink';

interface CollectionState {
  files: string[];
  entries: Map<string, { entry?: Entry; errors: Message[] }>;
  setErrors: Message[];
  version: number;
}

export interface ContentStore {
  /** Takes a new config (after the site module recompiled): re-plans and re-validates every file. */
  configure(config: SiteConfig): Promise<void>;
  /** Applies changes to files below content/ (paths relative to content/); returns the collections that changed. */
  update(changes: Map<string, ChangeKind>): Promise<string[]>;
  readonly content: Content;
  /** Every content problem, sorted; cross-file checks run only when every file is valid, as in a build. */
  errors(): Message[];
  version(collection: string): number;
}

export async function createContentStore(root: string): Promise<ContentStore> {
  const parsedFiles = new Map<string, ParsedFile | { errors: Message[] }>();
  const collections = new Map<string, CollectionState>();
  let config: SiteConfig | null = null;
  let plan: (ContentPlan & { refused: Message[] }) | null = null;
  let content: Content = {};
  let crossErrors: Message[] = [];
  let versionCounter = 0;
  let mdKey = '';

  async function entryFor(col: CollectionConfig, rel: string) {
    let parsed = parsedFiles.get(rel);
    if (!parsed) { parsed = await parseItem(config!, root, rel); parsedFiles.set(rel, parsed); }
    if (!('source' in parsed)) return { errors: parsed.errors };
    return makeEntry(col, rel, parsed);
  }

  /** The files of collection `name` in the current plan. */
  function filesOf(name: string): string[] {
    const span = plan!.spans.find(([n]) => n === name)!;
    return plan!.items.slice(span[1], span[2]).map((i) => i.rel);
  }

  /** Rebuilds one collection's value; `dirty` are files whose cached entries are stale. */
  async function refresh(name: string, col: CollectionConfig, dirty: Set<string> | null): Promise<boolean> {
    const files = filesOf(name);
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

  /** Problems of the listing (links out of the site), the file sets and the files, in a build's order. */
  function fileErrors(): Message[] {
    const out: Message[] = plan ? [...plan.refused] : [];
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
      const key = markdownKey(markdownExtensions(next.plugins));
      if (key !== mdKey) for (const rel of [...parsedFiles.keys()]) if (rel.endsWith('.md')) parsedFiles.delete(rel);
      mdKey = key;
      plan = await listAndPlan(root, next);
      collections.clear();
      content = {};
      for (const [name, col] of Object.entries(next.collections)) await refresh(name, col, null);
      await checkAcrossFiles();
    },

    async update(changes) {
      let listChanged = false;
      for (const [rel, kind] of changes) {
        parsedFiles.delete(rel);
        if (kind !== 'change') listChanged = true;
      }
      if (!config) return [];
      if (listChanged) plan = await listAndPlan(root, config);
      const dirty = new Set(changes.keys());
      const changed: string[] = [];
      for (const [name, col] of Object.entries(config.collections)) if (await refresh(name, col, dirty)) changed.push(name);
      if (changed.length) await checkAcrossFiles();
      return changed;
    },
  };
}
