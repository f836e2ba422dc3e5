// cspWarnings: what the site's Content-Security-Policy (src/output/hostfiles.ts) will block in the browser, found
// at build time so the page does not just break silently on the host. Two sources:
// - pages: the link scan (check.ts extractLinks) marks a page that has an inline `style="…"` attribute, an
//   inline <script> or an `on…=` event handler attribute (`csp:style`, `csp:script`, `csp:handler`);
//   and the origin of a remote <iframe>, <script src>, <img> or <form action> (`csp:frame <origin>`…), which its directive must name;
// - the client bundle: an island whose JS instantiates WebAssembly, which needs 'wasm-unsafe-eval'.
// One warning per kind (not per page), located at the template line that writes it when the site's
// sources show one, else at the first page's source, with the config line that allows it and the
// alternative. Nothing is said when the policy (the site's and the route's own csp) already allows it.
import fs from 'node:fs';
import path from 'node:path';
import type { AssetManifest, Location, Message, Route, SiteConfig } from '../core/types.ts';
import { fileLocation, message } from '../core/errors.ts';
import { CSP_MARK } from './linkScan.ts';
import { contentSecurityPolicy, hasOwnCsp } from '../output/hostfiles.ts';
import { findIslands } from '../islands/bundle.ts';

type Kind = 'style' | 'script' | 'handler';

// `needle`: what a template line that writes it holds; `unless`: what, after the needle on that line, makes it another thing.
const KINDS: Record<Kind, { what: string; directive: string; needle: string | null; unless?: string; fix: string }> = {
  style: {
    what: 'an inline style attribute (style="…")', directive: 'style-src', needle: 'style={',
    fix: 'Move the style into a class in the site\'s stylesheet, or allow inline styles in sitegen.config.ts: csp: () => ({ \'style-src\': ["\'unsafe-inline\'"] })',
  },
  script: {
    // (a `<script` with a src= after it on its line loads a file: not an inline one)
    what: 'an inline <script>', directive: 'script-src', needle: '<script', unless: 'src=',
    fix: 'Put the code in an island (templates/islands/) or a file under static/ loaded with <script src>, or allow inline scripts in sitegen.config.ts: csp: () => ({ \'script-src\': ["\'unsafe-inline\'"] })',
  },
  handler: {
    what: 'an inline event handler attribute (onclick="…")', directive: 'script-src', needle: null,
    fix: 'Handle the event in an island (templates/islands/), or allow inline handlers in sitegen.config.ts: csp: () => ({ \'script-src\': ["\'unsafe-inline\'"] })',
  },
};

/** The sources of each directive of a policy string ("a x y; b z"). */
function directives(policy: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name, values);
  }
  return out;
}

/** Whether inline code of `directive` runs: 'unsafe-inline', which a nonce or hash switches off. */
function allowsInline(policy: Map<string, string[]>, directive: string): boolean {
  const list = policy.get(directive) ?? policy.get('default-src') ?? [];
  return list.includes("'unsafe-inline'") && !list.some((s) => s.startsWith("'nonce-") || s.startsWith("'sha"));
}

export interface PageMarks { route: Pick<Route, 'path' | 'source' | 'csp' | 'output'>; links: string[] }

const EXAMPLES = 3;

/** Where the site's own template files write `needle` (`style={`), as locations (at most a few); a line with
 *  `unless` after the needle is not one. */
function templateLines(root: string, files: string[], needle: string, unless?: string): Location[] {
  const found: Location[] = [];
  for (const abs of files) {
    if (!/\.[jt]sx$/.test(abs) || abs.includes(`${path.sep}node_modules${path.sep}`) || !abs.startsWith(root + path.sep)) continue;
    let text: string;
    try { text = fs.readFileSync(abs, 'utf8'); } catch { continue; }
    if (!text.includes(needle)) continue;
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      const col = line.indexOf(needle);
      if (col >= 0 && found.length < 10 && !(unless && line.includes(unless, col))) found.push(fileLocation(path.relative(root, abs).split(path.sep).join('/'), i + 1, col + 1, line));
    });
  }
  return found;
}

/** The policy of a page: the site's, or the route's own when it adds sources (each made once). */
function pagePolicies(config: SiteConfig, env: NodeJS.ProcessEnv): (pg: PageMarks) => Map<string, string[]> {
  const policies = new Map<string, Map<string, string[]>>();
  let sitePolicy: Map<string, string[]> | null = null;
  return (pg) => {
    if (!hasOwnCsp(pg.route)) return sitePolicy ??= directives(contentSecurityPolicy(config, env));
    let policy = policies.get(pg.route.path);
    if (!policy) policies.set(pg.route.path, (policy = directives(contentSecurityPolicy(config, env, pg.route.csp))));
    return policy;
  };
}

/** "page /a/", "2 pages /a/, /b/" or "5 pages (/a/, /b/, /c/ and 2 more)": the pages a warning names, a few by path. */
function whichPages(list: PageMarks[]): string {
  const names = list.slice(0, EXAMPLES).map((p) => p.route.path).join(', ');
  if (list.length > EXAMPLES) return `${list.length} pages (${names} and ${list.length - EXAMPLES} more)`;
  return `${list.length === 1 ? 'page' : `${list.length} pages`} ${names}`;
}

/**
 * The warnings for pages whose HTML the policy blocks in part. `sourceFiles` are the site module's input
 * files (absolute), searched for the template line that writes an inline style.
 */
export function pageCspWarnings(root: string, config: SiteConfig, env: NodeJS.ProcessEnv, pages: PageMarks[], sourceFiles: string[] = []): Message[] {
  const blocked = new Map<Kind, PageMarks[]>();
  const policyOf = pagePolicies(config, env);
  for (const pg of pages) {
    for (const entry of pg.links) {
      if (!entry.startsWith(CSP_MARK)) continue;
      const kind = entry.slice(CSP_MARK.length) as Kind;
      if (!KINDS[kind]) continue;
      if (allowsInline(policyOf(pg), KINDS[kind].directive)) continue;
      if (!blocked.has(kind)) blocked.set(kind, []);
      blocked.get(kind)!.push(pg);
    }
  }
  const out: Message[] = [];
  for (const [kind, list] of blocked) {
    const k = KINDS[kind];
    const text = `${whichPages(list)} ${list.length === 1 ? 'has' : 'have'} ${k.what}, which the Content-Security-Policy (${k.directive} 'self') blocks in the browser`;
    const lines = k.needle ? templateLines(root, sourceFiles, k.needle, k.unless) : [];
    // (not found in a template: no place is named, rather than the first page's content file, which cannot
    // write inline markup: Markdown's raw HTML is refused)
    const m = message('CspBlocked', text, lines[0] ?? null, { hint: k.fix });
    for (const l of lines.slice(1)) m.notes.push({ text: `also ${k.what}`, location: l });
    out.push(m);
  }
  return [...out, ...remoteWarnings(config, env, pages, policyOf)];
}

// What loads from a remote origin, the directives that govern it in order, and the one a hint names. A form's
// action is governed by form-action alone: without it any action is allowed (no default-src fallback).
const REMOTE = {
  frame: { element: 'an <iframe>', directives: ['frame-src', 'child-src'], own: 'frame-src', fallback: true },
  script: { element: 'a <script src>', directives: ['script-src-elem', 'script-src'], own: 'script-src', fallback: true },
  img: { element: 'an <img>', directives: ['img-src'], own: 'img-src', fallback: true },
  form: { element: 'a <form action>', directives: ['form-action'], own: 'form-action', fallback: false },
} as const;

// A host source: [scheme://]host[:port][/path]. Linear: each part once, in order, no overlapping repeats.
const HOST_SOURCE = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*|(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::(\d+|\*))?(?:\/.*)?$/;
const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443' };

/** Whether one source expression of a directive lets `url` load (CSP's matching, for an origin: a source with
 *  a path is taken to allow its origin, since the page's mark keeps only the origin). */
function sourceAllows(source: string, url: URL, self: string | null): boolean {
  const src = source.toLowerCase();
  if (src === "'self'") return self === url.origin;
  if (src === '*') return url.protocol === 'http:' || url.protocol === 'https:';
  // A scheme alone; http: allows https: too (and ws: wss:), as browsers do.
  if (/^[a-z][a-z0-9+.-]*:$/.test(src)) return src === url.protocol || (src === 'http:' && url.protocol === 'https:') || (src === 'ws:' && url.protocol === 'wss:');
  const m = HOST_SOURCE.exec(src);
  if (!m) return false;
  const [, scheme, host, port] = m;
  if (scheme ? !(`${scheme}:` === url.protocol || (scheme === 'http' && url.protocol === 'https:')) : url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const hostname = url.hostname.toLowerCase();
  if (host !== '*' && (host!.startsWith('*.') ? !hostname.endsWith(host!.slice(1)) : hostname !== host)) return false;
  // (URL gives a scheme's default port as '')
  if (port === '*') return true;
  if (port) return port === (url.port || DEFAULT_PORT[url.protocol]);
  return url.port === ''; // no port named: the scheme's default only
}

/** The sources in force for a kind of load: the first of its directives the policy has, else default-src
 *  (null: nothing governs it, as form-action when the policy has none). */
function sourcesFor(policy: Map<string, string[]>, kind: keyof typeof REMOTE): { directive: string; sources: string[] } | null {
  for (const d of REMOTE[kind].directives) { const s = policy.get(d); if (s) return { directive: d, sources: s }; }
  return REMOTE[kind].fallback ? { directive: 'default-src', sources: policy.get('default-src') ?? [] } : null;
}

/** The site's own origin, for 'self' (SITE_URL when set, as the build takes it). */
function siteOrigin(config: SiteConfig, env: NodeJS.ProcessEnv): string | null {
  try { return new URL(env.SITE_URL || config.site.url).origin; } catch { return null; }
}

/**
 * A warning per remote origin an <iframe>, <script src> or <img> loads from that the page's policy does not
 * allow (YouTube in an iframe: frame-src is 'none'), with the pages that use it and the line that allows it.
 */
function remoteWarnings(config: SiteConfig, env: NodeJS.ProcessEnv, pages: PageMarks[], policyOf: (pg: PageMarks) => Map<string, string[]>): Message[] {
  const self = siteOrigin(config, env);
  const blocked = new Map<string, { kind: keyof typeof REMOTE; origin: string; pages: PageMarks[]; directive: string; sources: string[] }>();
  for (const pg of pages) {
    for (const entry of pg.links) {
      const space = entry.indexOf(' ');
      if (!entry.startsWith(CSP_MARK) || space < 0) continue;
      const kind = entry.slice(CSP_MARK.length, space) as keyof typeof REMOTE;
      if (!REMOTE[kind]) continue;
      const origin = entry.slice(space + 1);
      const governed = sourcesFor(policyOf(pg), kind);
      if (!governed) continue;
      const { directive, sources } = governed;
      let url: URL;
      try { url = new URL(origin); } catch { continue; }
      if (sources.some((src) => sourceAllows(src, url, self))) continue;
      const key = `${kind} ${origin}`;
      // The policy named is the first page's (a route's own csp may be in force there).
      if (!blocked.has(key)) blocked.set(key, { kind, origin, pages: [], directive, sources });
      blocked.get(key)!.pages.push(pg);
    }
  }
  const out: Message[] = [];
  for (const { kind, origin, pages: list, directive, sources } of blocked.values()) {
    const r = REMOTE[kind];
    const s = list.length === 1 ? 's' : '';
    const what = kind === 'form' ? `send${s} ${r.element} to ${origin}` : `load${s} ${origin} in ${r.element}`;
    const text = `${whichPages(list)} ${what}, which the Content-Security-Policy (${directive} ${sources.join(' ')}) blocks in the browser`;
    // The directive in force, or the kind's own when default-src is (never script-src-elem of its own: it
    // would replace script-src for every script, 'self' included).
    const named = directive !== 'default-src' ? directive : r.own;
    const allow = `{ '${named}': ['${origin}'] }`;
    const first = list[0]!.route.source;
    // An island that sends the form itself (fetch) is governed by connect-src, which no HTML shows.
    const alsoFetch = kind === 'form' ? ` (an island that sends it with fetch() also needs { 'connect-src': ['${origin}'] })` : '';
    out.push(message('CspBlocked', text, first ? fileLocation(first) : null, {
      hint: `Allow it where it is needed: on the route, csp: ${allow}, or for every page in sitegen.config.ts: csp: () => (${allow})${alsoFetch}`,
    }));
  }
  return out;
}

/** A policy the site's own static/_headers sets (merged after the generated file's): hosts combine two policies
 *  differently, so it may replace the strict one or block what it meant to allow. */
function ownPolicyWarning(statics?: ReadonlyMap<string, Uint8Array>): Message[] {
  const bytes = statics?.get('_headers');
  if (!bytes) return [];
  const lines = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8').split('\n');
  const i = lines.findIndex((l) => /^\s+content-security-policy\s*:/i.test(l));
  if (i < 0) return [];
  return [message('CspBlocked', 'static/_headers sets a Content-Security-Policy beside the one sitegen writes: hosts combine two policies differently (Netlify sends the later one, Cloudflare both, and a browser enforces each it gets)',
    fileLocation('static/_headers', i + 1, lines[i]!.search(/\S/) + 1, lines[i]), { hint: "Put the sources it adds in the config's csp (csp: () => ({ 'form-action': ['https://…'] })), or a route's csp, and take the line out of static/_headers." })];
}

// What instantiating WebAssembly reads like in bundled JS.
const WASM = ['WebAssembly.instantiate', 'WebAssembly.compile', '.wasm'];

const wasmScans = new WeakMap<Map<string, Uint8Array>, Set<string>>();

/** The URLs of the bundle's JS files that instantiate WebAssembly (scanned once per bundle). */
function wasmFiles(files: Map<string, Uint8Array>): Set<string> {
  let found = wasmScans.get(files);
  if (!found) {
    found = new Set();
    for (const [file, bytes] of files) {
      if (!file.endsWith('.js')) continue;
      const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
      if (WASM.some((w) => text.includes(w))) found.add('/' + file);
    }
    wasmScans.set(files, found);
  }
  return found;
}

/**
 * A warning per island whose bundle instantiates WebAssembly while script-src has no 'wasm-unsafe-eval'
 * (located at the island's source, at the line that names WebAssembly when it is the island's own code).
 * `islandFiles`: island name → its source file (absolute), as bundle.ts findIslands gives them.
 */
export function wasmCspWarnings(root: string, config: SiteConfig, env: NodeJS.ProcessEnv, manifest: Pick<AssetManifest, 'files' | 'islandChunks'>, islandFiles: Record<string, string>): Message[] {
  const wasm = wasmFiles(manifest.files);
  if (!wasm.size) return [];
  const script = directives(contentSecurityPolicy(config, env)).get('script-src') ?? [];
  if (script.includes("'wasm-unsafe-eval'") || script.includes("'unsafe-eval'")) return [];
  const out: Message[] = [];
  for (const [island, chunks] of Object.entries(manifest.islandChunks)) {
    if (!chunks.some((c) => wasm.has(c))) continue;
    const abs = islandFiles[island];
    let location: Location | null = null;
    if (abs) {
      const rel = path.relative(root, abs).split(path.sep).join('/');
      location = fileLocation(rel);
      try {
        const lines = fs.readFileSync(abs, 'utf8').split('\n');
        const i = lines.findIndex((l) => WASM.some((w) => l.includes(w)));
        const w = i >= 0 ? WASM.find((x) => lines[i]!.includes(x))! : '';
        if (i >= 0) location = fileLocation(rel, i + 1, lines[i]!.indexOf(w) + 1, lines[i]);
      } catch { /* the file alone */ }
    }
    out.push(message('CspBlocked', `island ${island} instantiates WebAssembly, which the Content-Security-Policy (script-src 'self') blocks in the browser`, location,
      { hint: 'Allow it in sitegen.config.ts: csp: () => ({ \'script-src\': ["\'wasm-unsafe-eval\'"] })' }));
  }
  return out;
}

/** Both kinds for one render of the site (build, check, a dev pass). */
export async function cspWarnings(root: string, config: SiteConfig, env: NodeJS.ProcessEnv, pages: PageMarks[], sourceFiles: string[], manifest: Pick<AssetManifest, 'files' | 'islandChunks'>, statics?: ReadonlyMap<string, Uint8Array>): Promise<Message[]> {
  // HTML pages only: a `body` route's file (JSON, XML) is data, whatever text it holds.
  const marked = pages.filter((p) => p.route.output.endsWith('.html') && p.links.some((l) => l.startsWith(CSP_MARK)));
  const out = [...ownPolicyWarning(statics), ...(marked.length ? pageCspWarnings(root, config, env, marked, sourceFiles) : [])];
  if (wasmFiles(manifest.files).size) out.push(...wasmCspWarnings(root, config, env, manifest, await findIslands(root, config)));
  return out;
}
