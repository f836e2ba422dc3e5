// configSchema: checks the config object a site's sitegen.config.ts exports against a strict schema of
// SiteConfig, so a misspelt or unsupported key (`colections`, `site.basePath`) is an error naming the key,
// located at it in sitegen.config.ts, instead of being silently ignored.
import { z } from 'zod';
import type { Message, SiteConfig } from '../core/types.ts';
import { message } from '../core/errors.ts';
import { invalidOgImage } from '../pipeline/routeTable.ts';
import { cspDirectiveProblem } from '../output/hostfiles.ts';
import { closest } from '../core/didYouMean.ts';
import { fieldType, schemaKeys, takesOtherKeys } from '../core/zodShape.ts';
import { LANG_HINT, LANG_TAG } from '../core/route.ts';
import { locateKey } from './configLocate.ts';
import { EDGE_SLASHES } from '../render/urls.ts';


const fn = (what: string) => z.custom<(...args: any[]) => any>((v) => typeof v === 'function', { error: `must be a function (${what})` });
/** A React component: a function, or an object React renders (memo, forwardRef, lazy). */
const component = z.custom<unknown>((v) => typeof v === 'function' || (typeof v === 'object' && v !== null && '$$typeof' in v), { error: 'must be a React component' });
/** A zod schema, from whichever copy of zod the site bundles (so no instanceof). */
const schema = z.custom<unknown>((v) => typeof (v as { safeParse?: unknown })?.safeParse === 'function', { error: 'must be a zod schema' });
/** CSP additions: sources by directive, or a function of the env that returns them; each wrong part said as such
 *  (a union's failure would say only "Invalid input"). */
const cspSchema = z.any().superRefine((v, ctx) => {
  if (typeof v === 'function') return;
  if (typeof v !== 'object' || v === null || Array.isArray(v) || (Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null)) {
    ctx.addIssue({ code: 'custom', message: "must be an object of sources by directive ({ 'img-src': ['https://cdn.example'] }), or a function of the env that returns one" });
    return;
  }
  for (const [k, list] of Object.entries(v)) {
    const bad = cspDirectiveProblem(k, list);
    if (bad) ctx.addIssue({ code: 'custom', path: [k], message: bad });
  }
});

const siteSchema = z.strictObject({
  title: z.string(),
  url: z.string(),
  lang: z.string().regex(LANG_TAG, { error: `must be ${LANG_HINT}` }).optional(),
  titleTemplate: z.string().optional(),
  favicon: z.string().optional(),
  // The link policy, as for a route's ogImage (route.ts).
  ogImage: z.string().superRefine((v, ctx) => { const bad = invalidOgImage(v); if (bad) ctx.addIssue({ code: 'custom', message: bad }); }).optional(),
  base: z.string().optional(),
});

/** A pattern with its brace groups ("{md,mdx}") spelt out, each alternative a pattern; null (so no list is offered)
 *  for braces that nest or do not close. */
function spelt(pattern: string): string[] | null {
  const open = pattern.indexOf('{');
  if (open < 0) return [pattern];
  const close = pattern.indexOf('}', open);
  if (close < 0 || pattern.slice(open + 1, close).includes('{')) return null;
  const rest = spelt(pattern.slice(close + 1));
  return rest && pattern.slice(open + 1, close).split(',').flatMap((alt) => rest.map((r) => `${pattern.slice(0, open)}${alt.trim()}${r}`));
}

const collectionSchema = z.strictObject({
  // (a pattern with braces, as Astro's glob() writes one, would match nothing without a word: said at the pattern)
  pattern: z.union([z.string(), z.array(z.string())]).superRefine((p, ctx) => {
    const list = Array.isArray(p) ? p : [p];
    const braced = list.find((x) => x.includes('{'));
    if (braced === undefined) return;
    // (each pattern with its groups spelt out, the others as they are; none offered for nested braces)
    const parts = list.map(spelt);
    const each = parts.every((x) => x !== null) ? (parts as string[][]).flat() : null;
    ctx.addIssue({ code: 'custom', message: `"${braced}" has braces, which a pattern does not read: list each pattern${each ? `, pattern: [${each.map((x) => `'${x}'`).join(', ')}]` : ''}` });
  }),
  schema,
  single: z.boolean().optional(),
  draft: z.string().optional(),
}).superRefine((c, ctx) => {
  // A draft marker that names no field of the schema never marks a draft: every draft would be published.
  const keys = c.draft === undefined ? null : schemaKeys(c.schema);
  if (!keys) return;
  if (!keys.includes(c.draft!)) {
    if (takesOtherKeys(c.schema)) return; // (a loose object passes the field through unchecked)
    const near = closest(c.draft!, keys);
    ctx.addIssue({ code: 'custom', path: ['draft'], message: `names "${c.draft}", which is not a field of the collection's schema${near ? ` (did you mean ${near}?)` : ''}, so no entry would be a draft: add it to the schema (${c.draft}: z.boolean().default(false)) or name the field that marks drafts` });
    return;
  }
  const type = fieldType(c.schema, c.draft!);
  if (type && !['boolean', 'pipe', 'union', 'any', 'unknown', 'custom', 'lazy'].includes(type)) ctx.addIssue({ code: 'custom', path: ['draft'], message: `names "${c.draft}", a ${type} field: a draft is marked by true, so its schema is z.boolean() (optional or with a default)` });
});

/** A component for Markdown (public.ts `component()`); names are what directives can write. */
const markdownComponent = z.strictObject({
  component,
  schema,
  parent: z.string().optional(),
  inline: z.boolean().optional(),
});
const components = z.record(z.string(), markdownComponent).superRefine((all, ctx) => {
  for (const [name, c] of Object.entries(all)) {
    if (!/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: 'is not a name Markdown can write: a letter, then up to 63 letters, digits, "-" or "_" (:::Name)' });
    if (c.parent !== undefined && !Object.hasOwn(all, c.parent)) ctx.addIssue({ code: 'custom', path: [name, 'parent'], message: `names "${c.parent}", which is not a registered component${closest(c.parent, Object.keys(all)) ? ` (did you mean ${closest(c.parent, Object.keys(all))}?)` : ''}` });
    if (c.parent !== undefined && c.inline) ctx.addIssue({ code: 'custom', path: [name, 'inline'], message: 'cannot be true with a parent: only blocks nest in blocks' });
  }
});

export const siteConfigSchema = z.strictObject({
  site: siteSchema,
  images: z.strictObject({
    fingerprint: z.boolean().optional(),
    widths: z.array(z.number().int().min(16).max(8192)).optional(),
    formats: z.array(z.enum(['avif', 'webp'])).optional(),
    quality: z.number().int().min(1).max(100).optional(),
    maxWidth: z.number().int().min(16).max(8192).optional(),
    // (an attribute's text: a media condition and a length, checked by the browser; empty says nothing)
    sizes: z.string().trim().min(1, 'Write the width images are shown at, e.g. "(min-width: 48rem) 44rem, 100vw", or leave sizes out').optional(),
    maxPixels: z.number().int().positive().optional(),
    // Host names only: each goes into the CSP's img-src as https://<host> (hostfiles.ts), so nothing else may ride along.
    remote: z.array(z.string().regex(/^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/i, 'Expected a host name, such as images.example.com (no scheme, path or port)')).optional(),
  }).optional(),
  trailingSlash: z.enum(['always', 'never']).optional(),
  collections: z.record(z.string(), collectionSchema),
  routes: fn('content => RouteDef[]'),
  validate: fn('content => ContentIssue[]').optional(),
  layout: component.optional(),
  css: z.array(z.string()).optional(),
  islandsDir: z.string().optional(),
  csp: cspSchema.optional(),
  cspMeta: z.boolean().optional(),
  notices: fn('env => string[]').optional(),
  define: fn('env => Record<string, string>').optional(),
  aliasPages: z.boolean().optional(),
  components: components.optional(),
  // Plugins own their fields (the plugin surface grows); each must at least be an object with a name.
  plugins: z.array(z.looseObject({ name: z.string() })).optional(),
});

// A field added to SiteConfig must be added above too (or every site using it fails to load): this line
// stops compiling when the two sets of keys differ.
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
const keysMatch: SameKeys<SiteConfig, z.infer<typeof siteConfigSchema>> = true;
const siteKeysMatch: SameKeys<SiteConfig['site'], z.infer<typeof siteSchema>> = true;
void keysMatch; void siteKeysMatch;

/** Thrown where the site module is loaded; messages.ts turns it into the located message. */
export class ConfigInvalid extends Error {
  /** `missing`: the issues' paths (dotted) at which the config has no value. */
  constructor(readonly issues: z.core.$ZodIssue[], readonly missing: ReadonlySet<string> = new Set()) { super('the config does not match SiteConfig'); }
}

/** Throws ConfigInvalid when the exported config has unknown keys or values of the wrong kind. */
export function checkConfig(config: unknown): void {
  if (config === undefined) return; // no default export: the loader's own error says so
  const r = siteConfigSchema.safeParse(config, { error: (iss) => (iss.code === 'invalid_type' && iss.input === undefined ? 'is required' : undefined) });
  // Unknown keys first: a misspelt `colections` also leaves `collections` missing, and the typo is the cause.
  if (!r.success) {
    const valueAt = (p: PropertyKey[]) => p.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined), config);
    const missing = new Set(r.error.issues.filter((iss) => iss.code !== 'unrecognized_keys' && valueAt(iss.path) === undefined).map((iss) => dotted(iss.path)));
    throw new ConfigInvalid([...r.error.issues].sort((a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys')), missing);
  }
}

/** The keys valid at a path of the config ([] for the top level), read off the schema: an object's own keys,
 *  through optional values, records (`collections.<name>`) and lists; none where the path leads elsewhere. */
function validKeys(at: PropertyKey[]): string[] {
  let s = siteConfigSchema as unknown as z.core.$ZodType | undefined;
  for (let i = 0; s; i++) {
    let def = s._zod.def as z.core.$ZodTypeDef & { innerType?: z.core.$ZodType; in?: z.core.$ZodType; valueType?: z.core.$ZodType; element?: z.core.$ZodType; shape?: Record<string, z.core.$ZodType> };
    while (def.innerType || def.type === 'pipe') { s = def.innerType ?? def.in!; def = s._zod.def as typeof def; }
    if (i === at.length) return def.type === 'object' ? Object.keys(def.shape!) : [];
    s = def.type === 'object' ? def.shape![String(at[i])] : def.type === 'record' ? def.valueType : def.type === 'array' ? def.element : undefined;
  }
  return [];
}

const dotted = (p: PropertyKey[]) => p.map(String).join('.');

/** A message per issue, each located at its key with its own hint (two typos are two problems, each with
 *  its did-you-mean). */
export function configMessages(e: ConfigInvalid, root: string): Message[] {
  // A key missing because it is misspelt (`colections`) is said once, by the misspelling's did-you-mean.
  const guessed = new Set(e.issues.flatMap((iss) => (iss.code === 'unrecognized_keys' ? iss.keys.flatMap((key) => { const g = closest(key, validKeys(iss.path)); return g ? [dotted([...iss.path, g])] : []; }) : [])));
  const issues = e.issues.filter((iss) => !(e.missing.has(dotted(iss.path)) && guessed.has(dotted(iss.path))));
  const all = issues.flatMap((iss) => iss.code === 'unrecognized_keys'
    ? iss.keys.map((key) => {
      const valid = validKeys(iss.path);
      // A key of an object one level in, written here (`base` beside `site` rather than inside it): said before
      // a typo's guess, which finds "site" a typo away from "title".
      const inside = valid.find((k) => validKeys([...iss.path, k]).includes(key));
      const guess = inside ? undefined : closest(key, valid);
      const meant = guess ? `Did you mean ${guess}? ` : inside ? `Did you mean ${dotted([...iss.path, inside, key])}? It goes inside ${inside}: { ${key}: … }. ` : '';
      return {
        text: `Unknown config key "${dotted([...iss.path, key])}"`,
        location: locateKey(root, [...iss.path, key]),
        hint: `${meant}Valid keys${iss.path.length ? ` in ${dotted(iss.path)}` : ''}: ${valid.join(', ')}.`,
      };
    })
    : [{ text: `Config "${dotted(iss.path)}" ${iss.message}`, location: locateKey(root, iss.path), hint: 'The keys a site config takes are listed in the Configuration page of the sitegen documentation.' }]);
  return all.map((m) => message('ConfigError', m.text, m.location, { hint: m.hint }));
}

/**
 * The origin for canonical URLs: --site-url, else $SITE_URL (an empty one is unset), else the config's
 * site.url; no trailing slash. `problem`: a ConfigError when it is not an absolute http(s) URL (written
 * `example.com`, every canonical URL and link of the site would be wrong), naming where it came from.
 */
/** Why a site.base is no path the site can be served under, or null. Characters a URL path holds as they are,
 *  one class repeated: linear. */
const PATH_CHARS = /^[A-Za-z0-9._~!$&'()*+,;=:@/-]*$/;
function baseProblem(base: string): { problem: string; hint: string } | null {
  const url = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/.*)?$/i.exec(base) ?? (base.startsWith('//') ? /^\/\/[^/]*(\/.*)?$/.exec(base) : null);
  if (url) return { problem: 'is a URL, not a path', hint: `Write the path the site is served under: ${JSON.stringify(url[1] && url[1] !== '/' ? url[1] : '/docs/')}; the origin goes in site.url.` };
  if (!PATH_CHARS.test(base)) {
    const bad = [...base].find((c) => !PATH_CHARS.test(c))!;
    return { problem: `has ${JSON.stringify(bad)}, which a URL path cannot hold as it is`, hint: bad === ' ' ? 'Write the folder with a hyphen instead of a space: "/my-docs/".' : 'Write the path the site is served under, of letters, digits and "-", "_", ".", "~" between slashes: "/docs/".' };
  }
  return null;
}

export function siteUrlFrom(root: string, config: SiteConfig, env: NodeJS.ProcessEnv, flag?: string): { url: string; problem: Message | null } {
  // (an empty one is unset, as an empty SITE_URL is: `--site-url "$URL"` where a host has no URL to give)
  const [raw, from] = flag ? [flag, '--site-url'] : env.SITE_URL ? [env.SITE_URL, 'SITE_URL'] : [config.site.url, 'site.url'];
  // As parsed (`https:example.com` is https://example.com), with no query, fragment or credentials.
  let u: URL | null = null;
  try { u = new URL(raw.trim()); } catch { /* not a URL */ }
  if (u && !((u.protocol === 'https:' || u.protocol === 'http:') && u.hostname && !u.search && !u.hash && !u.username && !u.password)) u = null;
  let url = u ? u.origin + u.pathname : '';
  while (url.endsWith('/')) url = url.slice(0, -1);
  const base = config.site.base && config.site.base !== '/' ? config.site.base : '';
  const badBase = base ? baseProblem(base) : null;
  if (badBase) return { url, problem: message('ConfigError', `site.base ${JSON.stringify(base)} ${badBase.problem}`, locateKey(root, ['site', 'base']), { hint: badBase.hint }) };
  // With a base, a path in the URL would be written twice in every canonical URL (…/repo/repo/…).
  if (u && base && u.pathname !== '/') {
    return { url, problem: message('ConfigError', `The site URL ${JSON.stringify(raw)} (${from}) has a path, and site.base ${JSON.stringify(base)} adds its own to every URL`, from === 'site.url' ? locateKey(root, ['site', 'url']) : null, {
      hint: `The site URL is the origin alone: write ${u.origin}, and keep the path in site.base.`,
    }) };
  }
  // Without one, the canonical URLs would hold the path while every link, script and stylesheet is written
  // from the host's root (a project site on GitHub Pages: each of them a 404).
  if (u && !base && u.pathname !== '/') {
    const folder = u.pathname.replace(EDGE_SLASHES, '');
    return { url, problem: message('ConfigError', `The site URL ${JSON.stringify(raw)} (${from}) has a path, but site.base is not set: links, scripts and stylesheets would be written from the host's root, not from /${folder}/`, from === 'site.url' ? locateKey(root, ['site', 'url']) : null, {
      hint: `The site URL is the origin alone: write ${u.origin}, and put the path in site.base ('/${folder}/'), which the build adds to every link and URL.`,
    }) };
  }
  if (url) return { url, problem: null };
  const bare = raw.trim().replace(/^(?:[a-z][a-z0-9+.-]*:\/\/|https?:\/*|https?\/+)/i, '');
  return { url: raw, problem: message('ConfigError', `The site URL ${JSON.stringify(raw)} (${from}) is not an absolute http(s) URL without a query or fragment`, from === 'site.url' ? locateKey(root, ['site', 'url']) : null, {
    hint: `Write the origin the site is served at, with its scheme: https://${bare.split(/[?#]/, 1)[0] || 'example.com'}.`,
  }) };
}
