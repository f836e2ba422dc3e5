// Shared data shapes of the pipeline: configuration a site gives, what each stage hands the next,
// and the diagnostics every stage reports (modelled on esbuild's Message).
import type { ComponentType, ReactNode } from 'react';
import type { ZodType } from 'zod';

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
}

export interface CollectionConfig {
  /** Glob(s) relative to content/: `*` matches within a segment, `**` any depth. */
  pattern: string | string[];
  schema: ZodType;
  /** Exactly one file: the collection's value is that file's validated data, not a list of entries. */
  single?: boolean;
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
}

export type Content = Record<string, any>;

export interface RouteDef<P = any> {
  /** URL path; normalised to a trailing slash unless `output` is given. */
  path: string;
  component: ComponentType<P>;
  props: P;
  title: string;
  description?: string;
  /** Overrides the output file (e.g. "404.html"); such a route keeps its path as given. */
  output?: string;
  noindex?: boolean;
  /** Left out of sitemap.xml (noindex routes are always left out). */
  sitemap?: boolean;
  /** Other URL paths that redirect here. */
  aliases?: string[];
  /** The content file the route comes from, for error messages. */
  source?: string;
  /** Open Graph type; "website" by default. */
  ogType?: string;
  /**
   * CSP sources this page alone needs (e.g. a third-party embed), merged into the site's policy for this
   * path only: `_headers` gets a rule for the path, so no other page allows them.
   */
  csp?: Record<string, string[]>;
}

export interface Route<P = any> extends Required<Pick<RouteDef<P>, 'path' | 'component' | 'props' | 'title'>> {
  description: string;
  output: string;
  noindex: boolean;
  sitemap: boolean;
  source: string | null;
  ogType: string;
  csp?: Record<string, string[]>;
}

export interface Alias {
  from: string;
  to: string;
  output: string;
  source: string | null;
}

export interface LayoutProps {
  route: Route;
  content: Content;
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
  };
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
  // `plugins?: SitegenPlugin[]` is declared in src/plugins.ts (merged into this interface there), so this
  // module imports nothing of the plugin surface and the two have no import cycle.
}

export interface PageReport {
  path: string;
  /** The page component's name, to group the size report by page type. */
  type: string;
  output: string;
  islands: string[];
  jsBytes: number;
  jsGzipBytes: number;
}

export interface BuildResult {
  errors: Message[];
  warnings: Message[];
  pages: number;
  aliases: number;
  assets: number;
  timings: Record<string, number>;
  outDir: string;
  pageReports: PageReport[];
  notices: string[];
  /** Stages served from the build cache (node_modules/.cache/sitegen): "config", "bundle". */
  cached: string[];
  /** The worker pool, when the build used one: its size and the tasks run by type (and how many on the main thread). */
  workers?: { workers: number; tasks: Record<string, { total: number; onMain: number }> };
}

/** What the client bundle gives the renderer: asset URLs per island, and the files to write (src/bundle.ts). */
export interface AssetManifest {
  /** URL of the runtime, or null when the site has no islands. */
  runtime: string | null;
  css: string[];
  /** Island name → URLs of every JS file it needs beyond the runtime (its chunk and shared chunks). */
  islandChunks: Record<string, string[]>;
  /** What React islands need besides their own chunks: React and react-dom (not the runtime). */
  baseChunks: string[];
  /** Islands hydrated with React (the others are Name.client.ts enhancements). */
  reactIslands: string[];
  /** Output files: path relative to the out dir → bytes. */
  files: Map<string, Uint8Array>;
  islands: string[];
}
