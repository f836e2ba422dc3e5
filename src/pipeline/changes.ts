// Which of a session's inputs a batch of changed files feeds: the site module (the config or a file it
// imports), the client bundle (a file it imports), a content file, a static file. Editor droppings and
// hidden files feed nothing; a batch that feeds nothing is no rebuild at all.
import path from 'node:path';
import type { ChangeKind } from '../content/liveContent.ts';
import { IMAGE_EXT } from '../images/model.ts';
import { CONTENT_FILE } from '../content/glob.ts';

export interface FileChange { file: string; kind: ChangeKind }

export interface Classified {
  /** The changed files, relative to the root ("content/a.md +2 more"). */
  what: string;
  module: boolean;
  client: boolean;
  /** Paths relative to content/ and static/. */
  content: Map<string, ChangeKind>;
  statics: Map<string, ChangeKind>;
  /** Image files below content/ and static/ (paths relative to the root): Markdown bodies that show one are parsed again. */
  images: Map<string, ChangeKind>;
}

export interface Known {
  /** Absolute paths of the files the last compile of the site module and of the client bundle read. */
  serverInputs: Set<string>;
  clientInputs: Set<string>;
  /** Whether the last compile or bundle failed (its imports are then unknown). */
  moduleFailed: boolean;
  bundleFailed: boolean;
}

/** Editor droppings and hidden files never feed a build. */
const ignored = (rel: string) => rel.split('/').some((s) => s.startsWith('.')) || /(~|\.sw[px]|\.tmp|^4913)$/.test(path.basename(rel));

const toPosix = (p: string) => p.split(path.sep).join('/');

/** A tsconfig.json or jsconfig.json, at the root or in a folder of the site's code, or one they extend (tsconfig.base.json). */
const TS_CONFIG = /(?:^|\/)[tj]sconfig(?:\.[\w-]+)?\.json$/;

export function classifyChanges(root: string, changes: FileChange[], known: Known): Classified | null {
  let module = false, client = false;
  const content = new Map<string, ChangeKind>();
  const statics = new Map<string, ChangeKind>();
  const images = new Map<string, ChangeKind>();
  const names: string[] = [];
  // Each file's events in the batch: an editor's temporary file is added, then removed (renamed over the real one).
  const added = new Set<string>(), last = new Map<string, ChangeKind>();
  for (const { file, kind } of changes) {
    const abs = path.resolve(root, file);
    const rel = toPosix(path.relative(root, abs));
    if (kind === 'add') added.add(rel);
    last.set(rel, kind);
    if (rel.startsWith('../') || ignored(rel)) continue;
    let relevant = false;
    if (rel === 'sitegen.config.ts' || known.serverInputs.has(abs)) module = relevant = true;
    if (known.clientInputs.has(abs)) client = relevant = true;
    // A TypeScript config esbuild reads (its `paths`, its JSX settings): both compiles may read other files now.
    if (TS_CONFIG.test(rel) && !rel.startsWith('content/') && !rel.startsWith('static/')) module = client = relevant = true;
    // An image a Markdown body may show (next to it, or under static/): the bodies that show it are parsed again.
    if ((rel.startsWith('content/') || rel.startsWith('static/')) && IMAGE_EXT.test(rel)) { images.set(rel, kind); relevant = true; }
    if (rel.startsWith('content/') && CONTENT_FILE.test(rel)) { content.set(rel.slice('content/'.length), kind); relevant = true; }
    else if (rel.startsWith('static/')) { statics.set(rel.slice('static/'.length), kind); relevant = true; }
    else if (!relevant) {
      // Code nothing imported yet (templates/, or a schema module under content/): a new or removed file
      // can satisfy or break an import, or add an island; an edit matters only while the last compile or
      // bundle failed, when the failing file's imports are unknown (it may be the fix).
      if (kind !== 'change' || known.moduleFailed) module = relevant = true;
      if (known.bundleFailed) client = relevant = true;
    }
    if (relevant) names.push(rel);
  }
  if (!names.length) return null;
  // Named for the files the batch leaves: an editor's or `sed -i`'s temporary file, made and removed (renamed
  // over the real one) within the batch, still counts above (a new file may satisfy an import) but is no
  // name a user wrote. Each file once.
  const shown = [...new Set(names)].filter((n) => !(added.has(n) && last.get(n) === 'unlink'));
  const named = shown.length ? shown : [names[0]!];
  return { what: named.length > 1 ? `${named[0]} +${named.length - 1} more` : named[0]!, module, client, content, statics, images };
}
