// The plugin surface: the seams where a site (or a package) adds behaviour without editing the engine.
// Modelled on the useful part of Vite's and Astro's hooks: a plugin is a plain object with a name and
// optional hooks; the engine calls each hook at one place in the pipeline, in the order plugins are listed.
// Inputs and outputs are plain data; a hook that fails with a user error returns Messages, never throws.
//
// Who calls what (keep this list true):
//   config   → every command, once, after the site module is loaded (build guards, defines, CSP, notices)
//   server   → `sitegen dev` and `sitegen preview`, when the host starts (request handlers before static files)
//   outputs  → the build pipeline, after pages are planned (files besides pages: feeds, JSON, host files)
//   head     → the document renderer, per route (extra <meta>, <link>, JSON-LD)
//   markdown → the Markdown stage (marked extensions), for every Markdown body
//   commands → the CLI, before arguments are parsed (subcommands such as `sitegen waitlist export`)
import type http from 'node:http';
import type { Message, Route, Content, SiteConfig } from './types.ts';

/** What a command runs as; plugins may behave differently in each (e.g. refuse a secret only in a build). */
export type Mode = 'build' | 'check' | 'dev' | 'preview';

export interface PluginContext {
  /** Absolute path of the site root. */
  root: string;
  mode: Mode;
  /** The environment the command runs with (process.env plus the root's .env). */
  env: Readonly<Record<string, string | undefined>>;
}

export interface ConfigContribution {
  /** Constants replaced in island code, as esbuild `define` entries (values are JS source text). */
  define?: Record<string, string>;
  /** Sources added to the strict Content-Security-Policy, per directive. */
  csp?: Record<string, string[]>;
  /** Lines the command prints about how it was configured. */
  notices?: string[];
  /** Problems that stop a build or check (e.g. a secret where a public key belongs). */
  errors?: Message[];
  /** Problems worth saying loudly that do not stop the build. */
  warnings?: Message[];
}

/** A request handler in front of the static files: returns true when it answered the request. */
export type RequestHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<boolean> | boolean;

export interface ServerContext extends PluginContext {
  /** The host the server listens on, as given (`--host`). */
  host: string;
  /** Resolves to the origin once the server listens, e.g. "http://127.0.0.1:5173". */
  origin: Promise<string>;
}

export interface ServerContribution {
  handlers: RequestHandler[];
  /** Lines printed under the server's URL (e.g. local keys). */
  banner?: string[];
  /** Called on shutdown; must release whatever the plugin holds (databases, locks). */
  close?: () => Promise<void>;
}

export interface OutputContext extends PluginContext {
  routes: Route[];
  content: Content;
  site: SiteConfig['site'];
  /** Production origin used for absolute URLs. */
  siteUrl: string;
}

/** A file a build writes besides pages: path relative to the output folder, and its bytes. */
export interface OutputFile {
  path: string;
  contents: string | Uint8Array;
}

/** One element added to a page's <head>. Rendered by the engine, escaped like any React content. */
export type HeadTag =
  | { tag: 'meta'; attrs: Record<string, string> }
  | { tag: 'link'; attrs: Record<string, string> }
  | { tag: 'jsonld'; data: unknown };

/** Minimal description of a CLI subcommand, so plugins do not depend on commander's types. */
export interface CommandDef {
  /** Words after `sitegen`, e.g. ["waitlist", "export"]. */
  name: string[];
  description: string;
  options?: { flags: string; description: string; default?: string | boolean }[];
  /** Returns the exit code (0 ok, 1 a problem the user can fix). */
  run: (options: Record<string, any>, ctx: { root: string; env: Readonly<Record<string, string | undefined>> }) => Promise<number>;
}

export interface SitegenPlugin {
  name: string;
  config?: (ctx: PluginContext) => ConfigContribution | Promise<ConfigContribution>;
  server?: (ctx: ServerContext) => ServerContribution | Promise<ServerContribution>;
  outputs?: (ctx: OutputContext) => OutputFile[] | Promise<OutputFile[]>;
  head?: (route: Route, content: Content) => HeadTag[];
  /** marked extensions (`MarkedExtension` objects), applied to every Markdown body in order. */
  markdown?: unknown[];
  commands?: CommandDef[];
}

// SiteConfig's plugin list, declared here so src/types.ts needs no import of this module (no cycle).
declare module './types.ts' {
  interface SiteConfig {
    /** Hooks at the engine's seams (server handlers, outputs, head, Markdown, CLI commands); see src/plugins.ts. */
    plugins?: SitegenPlugin[];
  }
}
