// Shared data shapes of the pipeline: configuration a site gives, what each stage hands the next,
// and the diagnostics every stage reports (modelled on esbuild's Message).
import type { ComponentType, ReactNode } from 'react';
import type { ZodType, output } from 'zod';
// The route and build-result shapes live beside this file; every stage imports them from here.
export type { BodyContext, CheckedRoute, PageHeadTag, RouteDef, Route, Alias } from './route.ts';
export type { PageReport, BuildResult, AssetManifest } from './buildResult.ts';
import type { Route, RouteDef } from './route.ts';

/** A heading of a Markdown entry (markdown/entryText.ts reads them from the tokens). */
export interface MarkdownHeading {
  /** 1 for `#`, up to 6. */
  depth: number;
  /** The heading's text, without markup. */
  text: string;
  /** The heading's id in the HTML: only with `markdown({ headingIds: true })`, which writes it. */
  id?: string;
}

export interface Location {
  /** Path relative to the site root, with forward slashes. */
  file: string;
  /** 1-based line, 0 when unknown. */
  line: number;
  /** 1-based column, 0 when unknown. */
  column: number;
  /** The source line, for code frames. */
  lineText: string;
}

export interface Message {
  /** Catalogue name of the error, e.g. "ContentSchemaError". */
  id: string;
  text: string;
  location: Location | null;
  /** Field path inside the file, e.g. "skills[3].description". */
  field?: string;
  notes: { text: string; location: Location | null }[];
  hint?: string;
  /** A page's render failure: the page and what its template threw (errors.ts groups repeats by them). */
  render?: { page: string; thrown: string };
}

export interface CollectionConfig<S extends ZodType = ZodType> {
  /** Glob(s) relative to content/: `*` matches within a segment, `**` any depth. */
  pattern: string | string[];
  schema: S;
  /** Exactly one file: the collection's value is that file's validated data, not a list of entries. */
  single?: boolean;
  /**
   * A boolean field of the schema that marks a draft (e.g. "draft"): an entry whose value is `true` is left
   * out of `build` and `check` (unless `--drafts`); `dev` keeps it, with `entry.draft === true`.
   */
  draft?: string;
}

export interface Entry<T = any> {
  /** Path below the collection's base folder, without extension: "online/saas". */
  id: string;
  /** Last segment of id: "saas". */
  slug: string;
  /** Folders between the base and the file: ["online"]. */
  dirs: string[];
  /** Path relative to the site root: "content/sectors/online/saas.yaml". */
  file: string;
  data: T;
  /** Markdown body rendered to HTML (Markdown files only). */
  html?: string;
  /** The body's headings in order, nested ones too (Markdown files only); `id` only with heading ids on. */
  headings?: MarkdownHeading[];
  /** Plain text before a `<!-- more -->` line, else the body's first paragraph with text (Markdown files only). */
  excerpt?: string;
  /** Words in the body's text (Markdown files only). */
  words?: number;
  /** `words` / 200, rounded up, at least 1 (Markdown files only). */
  readingMinutes?: number;
  /** The URL of every link written in the body (`[text](url)`, reference links, autolinks), in order, as
   *  written (character references decoded; before the site's base is added), frozen (Markdown files only). */
  links?: readonly string[];
  /** True for a draft (its collection's `draft` field is true); only dev and `--drafts` builds have drafts. */
  draft?: boolean;
}

/**
 * What `routes(content)` and `validate(content)` get. `Content<typeof collections>` is typed from the
 * schemas (a list of entries per collection, a `single` one is its schema's output); plain `Content` is
 * untyped, for code that handles any site (the engine, page groups that predate typed content).
 */
export type Content<Cs extends Record<string, CollectionConfig<any>> | undefined = undefined> =
  Cs extends Record<string, CollectionConfig<any>> ? ContentOf<Cs> : Record<string, any>;

/**
 * One collection's value: its schema's output for `single: true`, else the list of entries — whose `html`
 * is a string when every pattern names Markdown files (".md"), as the loader always renders their body
 * (and so are `headings`, `excerpt`, `words`, `readingMinutes` and `links`).
 */
export type CollectionValue<C> = C extends { schema: infer S extends ZodType }
  ? C extends { single: true } ? output<S>
    : C extends { pattern: `${string}.md` | readonly `${string}.md`[] } ? (Entry<output<S>> & MarkdownEntryText)[]
    : Entry<output<S>>[]
  : never;

/** What every entry of a Markdown collection has. */
export type MarkdownEntryText = { html: string; headings: MarkdownHeading[]; excerpt: string; words: number; readingMinutes: number; links: readonly string[] };

export type ContentOf<Cs> = { [K in keyof Cs]: CollectionValue<Cs[K]> };

/** A component registered for Markdown (made by `component()` of the public API). */
export interface MarkdownComponent {
  /** The React component; one from the islands folder is hydrated like any island. */
  component: ComponentType<any>;
  /** A zod schema of its attributes (strings, `true` for a bare flag); coerce there if you want other types. */
  schema: ZodType;
  /** The only component it may be nested in (directly): `Tab` in `Tabs`. */
  parent?: string;
  /** Used inline (`:Name[label]{…}`) rather than as a block. */
  inline?: boolean;
}

/** What the layout gets. `LayoutProps<Content<typeof collections>>` types `content` from the site's schemas. */
export interface LayoutProps<C = Content> {
  route: Route;
  content: C;
  children: ReactNode;
}

export interface ContentIssue {
  file: string;
  path: (string | number)[];
  message: string;
  /** Text the issue is about, when it is not a whole field (a word in a Markdown body): the error points at
   *  its first occurrence in the file, with that line as the code frame. */
  text?: string;
}

export interface SiteConfig {
  site: {
    title: string;
    /** Production origin, e.g. "https://example.com"; `--site-url` overrides it. */
    url: string;
    lang?: string;
    /** `%s` is replaced by the page title. */
    titleTemplate?: string;
    favicon?: string;
    ogImage?: string;
    /**
     * The path the site is served under, e.g. "/repo/" for a GitHub Pages project site (default "/"). Route
     * paths are written without it; every URL the engine writes (links through href(), assets, canonical,
     * sitemap, host files) gets it, and dev and preview serve the site under it.
     */
    base?: string;
  };
  /**
   * Images. `fingerprint: true` also writes each static image under /assets/ with a content hash, and
   * image() links that copy. The rest shapes the <picture> of <Image> and of Markdown images: `widths` in
   * each srcset (default 640, 960, 1280, 1920; never above an image's own), `formats` besides the
   * original's (default avif, webp), `quality` (1-100, default 60), `maxWidth` the widest an image is shown
   * (its width/height attributes; default 1280), `maxPixels` above which an image is refused (default 100
   * million), `remote` the hosts whose images Markdown may link as they are.
   */
  images?: {
    fingerprint?: boolean;
    widths?: number[];
    formats?: ('avif' | 'webp')[];
    quality?: number;
    maxWidth?: number;
    /** The `sizes` of every image that names none (default: its width up to the viewport's): the width of the site's text column. */
    sizes?: string;
    maxPixels?: number;
    remote?: string[];
  };
  /** Page URLs end with "/" ("always", the default: /about/ → about/index.html) or not ("never": /about → about.html). */
  trailingSlash?: 'always' | 'never';
  collections: Record<string, CollectionConfig>;
  routes: (content: Content) => RouteDef[];
  /** Checks across files (counts, references); each issue is located in its file. */
  validate?: (content: Content) => ContentIssue[];
  layout?: ComponentType<LayoutProps>;
  /** Stylesheets relative to the site root, bundled into one hashed file. */
  css?: string[];
  /** Folder of island components, relative to the root. Default "templates/islands". */
  islandsDir?: string;
  /** Extra Content-Security-Policy sources, merged into the strict default; a function gets the build's environment. */
  csp?: Record<string, string[]> | ((env: NodeJS.ProcessEnv) => Record<string, string[]>);
  /**
   * Also write the Content-Security-Policy into every page, as `<meta http-equiv="Content-Security-Policy">`
   * first in its head, for hosts that send no headers from `_headers` (GitHub Pages). Default false. A page
   * cannot set `frame-ancestors`, `sandbox` or report endpoints that way: they stay in `_headers` only.
   */
  cspMeta?: boolean;
  /** Lines the build prints about how it was configured (e.g. which backend the site talks to). */
  notices?: (env: NodeJS.ProcessEnv) => string[];
  /** Values replaced at build time in island code: `process.env.X` style defines. */
  define?: (env: NodeJS.ProcessEnv) => Record<string, string>;
  /**
   * Write a meta-refresh page at every alias path (default true), so aliases work on hosts that ignore
   * `_redirects`. With false, aliases live in `_redirects` only (one file instead of one per alias) and
   * still count as link targets.
   */
  aliasPages?: boolean;
  /**
   * Components content may use in Markdown, by name: `:::Callout{type="tip"}` … `:::` for a block,
   * `:Badge[new]{tone="info"}` inline. Each is `component(Component, schema, options)`: the attributes are
   * checked with the schema and the component renders on the server (hydrated when it is an island).
   */
  components?: Record<string, MarkdownComponent>;
  // `plugins?: SitegenPlugin[]` is declared in src/site/plugins.ts (merged into this interface there), so this
  // module imports nothing of the plugin surface and the two have no import cycle.
}
