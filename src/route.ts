// route: a pure function from validated content to the route table and aliases.
// One trailing-slash policy lives here: every page path ends in "/" and is written to <path>/index.html.
import type { Alias, Content, Message, Route, RouteDef, SiteConfig } from './types.ts';
import { message, fileLocation, thrownBySite } from './errors.ts';

export function normalisePath(p: string): string {
  if (p === '/' || p === '') return '/';
  return p.endsWith('/') ? p : `${p}/`;
}

export function outputFor(p: string): string {
  return p === '/' ? 'index.html' : `${p.replace(/^\/|\/$/g, '')}/index.html`;
}

function invalidPath(p: string): string | null {
  if (typeof p !== 'string' || !p.startsWith('/')) return 'must start with "/"';
  if (/[\s?#\\]/.test(p)) return 'must not contain spaces, "?", "#" or "\\"';
  if (p.split('/').some((s) => s === '..' || s === '.')) return 'must not contain "." or ".." segments';
  return null;
}

/**
 * The route a def becomes, with every default filled in, for a def whose path is valid. The one place route
 * defaults live: a session (pipeline/routes.ts) refreshes reused routes through it too.
 */
export function routeOf(d: RouteDef): Route {
  const path = d.output ? d.path : normalisePath(d.path);
  return {
    path, output: d.output ?? outputFor(path), component: d.component, props: d.props, title: d.title,
    description: d.description ?? '', noindex: !!d.noindex, sitemap: d.sitemap !== false && !d.noindex && !d.output,
    source: d.source ?? null, ogType: d.ogType ?? 'website',
    ...(d.csp && Object.keys(d.csp).length ? { csp: d.csp } : {}),
  };
}

export interface RouteTable {
  routes: Route[];
  aliases: Alias[];
  errors: Message[];
}

export function routeTable(content: Content, config: SiteConfig, root = ''): RouteTable {
  const errors: Message[] = [];
  let defs: RouteDef[];
  try {
    defs = config.routes(content);
  } catch (e) {
    return { routes: [], aliases: [], errors: [thrownBySite(e, root, 'routes() threw')] };
  }
  const byOutput = new Map<string, { what: string; source: string | null }>();
  const claim = (output: string, what: string, source: string | null): boolean => {
    const prev = byOutput.get(output);
    if (prev) {
      const m = message('DuplicateRoute', `${what} and ${prev.what} both write ${output}`, source ? fileLocation(source) : null);
      m.notes.push({ text: `${prev.what} is written first`, location: null });
      errors.push(m);
      return false;
    }
    byOutput.set(output, { what, source });
    return true;
  };
  const routes: Route[] = [];
  for (const d of defs) {
    const bad = invalidPath(d.path);
    if (bad) { errors.push(message('InvalidRoute', `route "${d.path}" ${bad}`, d.source ? fileLocation(d.source) : null)); continue; }
    if (!d.component) { errors.push(message('ConfigError', `route ${d.path} has no component (template missing?)`, d.source ? fileLocation(d.source) : null)); continue; }
    const route = routeOf(d);
    if (!claim(route.output, `page ${route.path}${d.source ? ` (${d.source})` : ''}`, d.source ?? null)) continue;
    routes.push(route);
  }
  const aliases: Alias[] = [];
  const defByPath = new Map(defs.map((d) => [d.output ? d.path : normalisePath(d.path), d]));
  for (const r of routes) {
    for (const a of defByPath.get(r.path)?.aliases ?? []) {
      const bad = invalidPath(a);
      if (bad) { errors.push(message('InvalidRoute', `alias "${a}" of ${r.path} ${bad}`, r.source ? fileLocation(r.source) : null)); continue; }
      const from = normalisePath(a);
      const output = outputFor(from);
      if (!claim(output, `alias ${from} → ${r.path}`, r.source)) continue;
      aliases.push({ from, to: r.path, output, source: r.source });
    }
  }
  return { routes, aliases, errors };
}
