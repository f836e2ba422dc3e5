// Route-level CSP additions: a route's `csp` reaches _headers as a rule for that path only, and the
// preview/dev header matcher gives that path the route's policy while every other path keeps the strict one.
import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { routeTable } from '../../src/pipeline/routeTable.ts';
import { contentSecurityPolicy, headersFile, parseHeadersFile, routeCspRules } from '../../src/output/hostfiles.ts';

const Page = () => createElement('p', null, 'x');
const config = { csp: { 'connect-src': ['https://api.example'] } } as any;

/** The headers preview and dev send for a path: every matching rule in order, a later value replacing an earlier. */
function headersAt(file: string, pathname: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rule of parseHeadersFile(file)) if (rule.pattern.test(pathname)) for (const [k, v] of rule.headers) out[k] = v;
  return out;
}

describe('route-level CSP', () => {
  const { routes } = routeTable({}, { ...config, routes: () => [
    { path: '/', component: Page, props: {}, title: 'Home' },
    { path: '/terms', component: Page, props: {}, title: 'Terms', csp: { 'script-src': ['https://policies.example'], 'frame-src': ['https://policies.example'] } },
  ] });
  const file = headersFile(contentSecurityPolicy(config), routeCspRules(routes, config));

  it('adds the sources only on the route that asks for them', () => {
    const home = headersAt(file, '/')['Content-Security-Policy'];
    expect(home).toContain("script-src 'self';");
    expect(home).not.toContain('policies.example');
    const terms = headersAt(file, '/terms/')['Content-Security-Policy'];
    expect(terms).toContain("script-src 'self' https://policies.example;");
    expect(terms).toContain('frame-src https://policies.example;');
    expect(terms).toContain("connect-src 'self' https://api.example;"); // the site-wide additions still apply
    expect(headersAt(file, '/terms/index.html')['Content-Security-Policy']).toBe(terms);
    expect(headersAt(file, '/terms/x/')['Content-Security-Policy']).toBe(home);
  });

  it('detaches the site-wide policy in the route rule, so hosts that combine rules do not send two policies', () => {
    expect(file).toMatch(/^\/terms\/\n {2}! Content-Security-Policy\n {2}Content-Security-Policy: /m);
    expect(routeCspRules(routes, config)).toHaveLength(1);
  });
});
