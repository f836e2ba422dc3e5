// The plugin surface: the seams where a site (or a package) adds behaviour without editing the engine.
// Modelled on the useful part of Vite's and Astro's hooks: a plugin is a plain object with a name and
// optional hooks; the engine calls each hook at one place in the pipeline, in the order plugins are listed.
// Inputs and outputs are plain data; a hook that fails with a user error returns Messages, never throws.
//
// Who calls what (keep this list true):
//   config   → build, check and dev (pipeline/session.ts, after each compile of the site module) and preview
//              (src/server/preview.ts), through applyConfigHooks below: its define/csp/notices are merged into the config
//              the pipeline reads; its errors stop the command, its warnings are printed
//   server   → `sitegen dev` (src/server/dev.ts: after the first good compile of the config, and again
//              whenever a rebuild compiles the config anew) and `sitegen preview` (src/server/preview.ts), through
//              startServerPlugins below: handlers go in front of the static files; none → nothing is started
//   outputs  → the build pipeline, after pages are planned (files besides pages: feeds, JSON, host files)
//   head     → the document renderer, per route (extra <meta>, <link>, JSON-LD)
//   markdown → the Markdown stage (marked extensions), for every Markdown body
//   commands → the CLI, before arguments are parsed, only when the first word may be a plugin's: not a
//              built-in command nor (with no current module cache) a typo of one, nor a word the cache's
//              record says no plugin declares (cli/program.ts registerPluginCommands; `sitegen <plugin> export`).
//              A command whose first word is a built-in's or a typo of one is ignored with a warning.
import type http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { MarkedExtension } from 'marked';
import type { Message, Route, Content, SiteConfig } from '../core/types.ts';
import { closest } from '../core/didYouMean.ts';
import { pluginAt, thrownBySite } from '../core/errors.ts';
import { extensionOwner } from '../markdown/outputCulprit.ts';


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
  /** Problems that stop the server from starting (e.g. a damaged database): printed, exit 1, nothing started. */
  errors?: Message[];
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
  /** Words after `sitegen`, e.g. ["mail", "export"]. The first may not be a built-in command's name or
   *  one or two letters from one ("chek"): such a command is ignored with a warning. */
  name: string[];
  description: string;
  options?: { flags: string; description: string; default?: string | boolean }[];
  /** Returns the exit code (0 ok, 1 a problem the user can fix). The CLI adds `-r, --root <dir>` itself. */
  run: (options: Record<string, any>, ctx: { root: string; env: Readonly<Record<string, string | undefined>> }) => Promise<number>;
}

export interface SitegenPlugin {
  name: string;
  config?: (ctx: PluginContext) => ConfigContribution | Promise<ConfigContribution>;
  server?: (ctx: ServerContext) => ServerContribution | Promise<ServerContribution>;
  outputs?: (ctx: OutputContext) => OutputFile[] | Promise<OutputFile[]>;
  head?: (route: Route, content: Content) => HeadTag[];
  /** marked extensions, applied to every Markdown body in order (build, dev and workers alike); the
   *  content cache re-parses Markdown when the list, its functions' source or sitegen.config.ts changes. */
  markdown?: MarkedExtension[];
  commands?: CommandDef[];
}

// --- How the engine and the CLI call the hooks (one place each) ----------------------------------------

export interface AppliedConfig {
  /** The site config with every plugin's define, csp and notices merged into its own. */
  config: SiteConfig;
  errors: Message[];
  warnings: Message[];
}

/** A plugin's errors or warnings as messages whatever shape it gave them (a string, `{ text }`, a whole
 *  Message): one without `notes` or an `id` must not stop the report, and one that is not a Message names the plugin. */
function pluginMessages(plugin: SitegenPlugin, list: unknown): Message[] {
  if (list === undefined || list === null) return [];
  return (Array.isArray(list) ? list : [list]).map((m: any): Message => {
    const text = typeof m === 'string' ? m : String(m?.text ?? m?.message ?? JSON.stringify(m));
    // (a whole Message as it is; a bare text names the plugin)
    const whole = typeof m?.text === 'string' && typeof m?.id === 'string';
    return { id: whole ? m.id : 'ConfigError', text: whole ? text : `plugin "${plugin.name}": ${text}`, location: m?.location ?? null, notes: Array.isArray(m?.notes) ? m.notes : [], ...(typeof m?.hint === 'string' ? { hint: m.hint } : {}) };
  });
}

const HOOKS = ['name', 'config', 'server', 'outputs', 'head', 'markdown', 'commands'];
/** A plugin's keys that are no hook (`heads`, `output`): said, as the engine would never call them. */
function unknownHooks(plugin: SitegenPlugin, root?: string): Message[] {
  if (!plugin || typeof plugin !== 'object') return [];
  return Object.keys(plugin).filter((k) => !HOOKS.includes(k)).map((k): Message => {
    const near = closest(k, HOOKS.slice(1));
    return { id: 'ConfigError', text: `plugin "${plugin.name}" has "${k}", which is no hook: the engine never calls it`, location: root ? pluginAt(root, String(plugin.name), k) : null, notes: [], hint: `${near ? `Did you mean ${near}? ` : ''}A plugin's hooks: ${HOOKS.slice(1).join(', ')}.` };
  });
}

/** A hook that threw: the plugin's error, located in the site's code where the throw is (a plugin's file). */
const hookFailed = (plugin: SitegenPlugin, hook: string, e: any, root: string): Message =>
  ({ ...thrownBySite(e, root, `plugin "${plugin.name}" failed in its ${hook} hook`), hint: 'Fix the plugin at the location shown (or, without one, see the plugin in sitegen.config.ts).' });

/**
 * Runs every plugin's `config` hook (in order) and folds what they contribute into the config, so the
 * rest of the pipeline reads define/csp/notices from one place. The site's own values come first.
 */
export async function applyConfigHooks(config: SiteConfig, ctx: PluginContext): Promise<AppliedConfig> {
  const plugins = config.plugins ?? [];
  const errors: Message[] = [];
  const warnings: Message[] = [];
  const parts: ConfigContribution[] = [];
  for (const plugin of plugins) {
    warnings.push(...unknownHooks(plugin, ctx.root));
    if (!plugin.config) continue;
    try {
      const part = (await plugin.config(ctx)) ?? {};
      parts.push(part);
      errors.push(...pluginMessages(plugin, part.errors));
      warnings.push(...pluginMessages(plugin, part.warnings));
    } catch (e) {
      errors.push(hookFailed(plugin, 'config', e, ctx.root));
    }
  }
  if (parts.length === 0) return { config, errors, warnings };
  const own = config;
  const merged: SiteConfig = {
    ...own,
    define: (env) => Object.assign({}, own.define?.(env), ...parts.map((p) => p.define ?? {})),
    notices: (env) => [...(own.notices?.(env) ?? []), ...parts.flatMap((p) => p.notices ?? [])],
    csp: (env) => {
      const out: Record<string, string[]> = {};
      const base = typeof own.csp === 'function' ? own.csp(env) : own.csp ?? {};
      for (const part of [base, ...parts.map((p) => p.csp ?? {})]) {
        for (const [k, v] of Object.entries(part)) out[k] = [...(out[k] ?? []), ...v];
      }
      return out;
    },
  };
  return { config: merged, errors, warnings };
}

export interface StartedServerPlugins {
  handlers: RequestHandler[];
  banner: string[];
  errors: Message[];
  close: () => Promise<void>;
}

/**
 * Starts every plugin's `server` hook (dev and preview). A site without one starts nothing. When a plugin
 * refuses to start, the ones already started are closed again and its errors are returned.
 */
export async function startServerPlugins(plugins: SitegenPlugin[], ctx: ServerContext): Promise<StartedServerPlugins> {
  const started: ServerContribution[] = [];
  const close = async () => {
    const results = await Promise.allSettled(started.map((s) => s.close?.()));
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult | undefined;
    if (failed) throw failed.reason;
  };
  for (const plugin of plugins) {
    if (!plugin.server) continue;
    let part: ServerContribution;
    try {
      part = await plugin.server(ctx);
    } catch (e) {
      await close().catch(() => {});
      return { handlers: [], banner: [], errors: [hookFailed(plugin, 'server', e, ctx.root)], close: async () => {} };
    }
    if (part.errors?.length) {
      await Promise.allSettled([part.close?.(), close()]);
      return { handlers: [], banner: [], errors: part.errors, close: async () => {} };
    }
    started.push(part);
  }
  return {
    handlers: started.flatMap((s) => s.handlers),
    banner: started.flatMap((s) => s.banner ?? []),
    errors: [],
    close,
  };
}

// SiteConfig's plugin list, declared here so src/core/types.ts needs no import of this module (no cycle).
declare module '../core/types.ts' {
  interface SiteConfig {
    /** Hooks at the engine's seams (server handlers, outputs, head, Markdown, CLI commands); see src/site/plugins.ts. */
    plugins?: SitegenPlugin[];
  }
}

const extensionLists = new WeakMap<SitegenPlugin[], MarkedExtension[]>();

/** Every plugin's marked extensions in plugin order; the same array for the same plugin list (so the
 *  Markdown stage makes one marked instance per list). */
export function markdownExtensions(plugins?: SitegenPlugin[]): MarkedExtension[] {
  if (!plugins?.length) return [];
  let list = extensionLists.get(plugins);
  if (!list) {
    list = plugins.flatMap((p) => p.markdown ?? []);
    // (a refused body's message names the plugin whose extension wrote it: markdown/outputCulprit.ts)
    for (const p of plugins) for (const e of p.markdown ?? []) if (!extensionOwner.has(e)) extensionOwner.set(e, p.name);
    extensionLists.set(plugins, list);
  }
  return list;
}

/**
 * For the content cache's key: the text of sitegen.config.ts when a plugin other than the engine's own markdown()
 * brings marked extensions, '' otherwise. Their functions' source is in the key already, but options a plugin keeps
 * in a closure (`markPlugin({ tag: 'ins' })`) are not: they are written in the config, whose edit then re-parses
 * the Markdown. (Options read from elsewhere, an environment variable or a data file, are still not seen.)
 */
export function extensionOptionsKey(config: SiteConfig, root: string): string {
  if (!(config.plugins ?? []).some((p) => p.name !== 'sitegen:markdown' && p.markdown?.length)) return '';
  try { return `:config=${createHash('sha1').update(fs.readFileSync(path.join(root, 'sitegen.config.ts'))).digest('hex').slice(0, 16)}`; } catch { return ''; }
}

