// What the strict default Content-Security-Policy blocks in the browser is said at build time, located,
// with the config line that allows it: inline style attributes, inline scripts and event handler
// attributes in rendered pages, and islands that instantiate WebAssembly. Nothing when the site's csp
// allows it. Build, check and dev say the same.
import { afterEach, describe, expect, it } from 'vitest';
import { type TestSite } from '../helpers/site.ts';
import { copyOf } from '../helpers/scratch.ts';
import { extractLinks } from '../../src/pipeline/linkScan.ts';
import { formatMessageLong } from '../../src/core/errors.ts';
import { cpuMs } from '../helpers/cpuTime.ts';

let site: TestSite | null = null;
afterEach(() => { site?.remove(); site = null; });

/** The basic fixture with the item template writing an inline style on every item page. */
const styled = (config?: (text: string) => string) => copyOf('basic').then((s) => {
  s.edit('templates/pages.tsx', (t) => t.replace('return (<><h1>{title}</h1><p>{tags', 'return (<><h1 style={{ color: \'red\' }}>{title}</h1><p>{tags'));
  if (config) s.edit('sitegen.config.ts', config);
  return s;
});

describe('CSP warnings', () => {
  it('marks inline styles, running inline scripts and event handlers in the link scan, not JSON data or look-alikes', () => {
    const marks = (html: string) => extractLinks(html).filter((l) => l.startsWith('csp:'));
    expect(marks('<h1 style="color:red">x</h1>')).toEqual(['csp:style']);
    expect(marks('<button type="button" onclick="go()">x</button>')).toEqual(['csp:handler']);
    expect(marks('<p>x</p><script>go()</script>')).toEqual(['csp:script']);
    expect(marks('<script type="module">go()</script>')).toEqual(['csp:script']);
    expect(marks('<script type="application/ld+json">{"a":1}</script><script src="/a.js"></script><script type="module" src="/b.js"></script>')).toEqual([]);
    expect(marks('<div data-style="x" class="style" aria-label="onclick"><a href="/a/" id="on">x</a></div><p>style=&quot;x&quot; onclick=&quot;y&quot;</p>')).toEqual([]);
    // Still the links and ids, as before.
    expect(extractLinks('<a href="/a/" style="x">a</a><p id="p" onmouseover="y">')).toEqual(['/a/', 'csp:style', 'id:p', 'csp:handler']);
  });

  it('marks the origin of a remote <iframe>, <script src> and <img>, not of links or local files', () => {
    const marks = (html: string) => extractLinks(html).filter((l) => l.startsWith('csp:'));
    expect(marks('<iframe title="v" src="https://www.youtube-nocookie.com/embed/x?a=1&amp;b=2"></iframe><script src="//cdn.example.net/w.js"></script><img alt="" src="http://pics.example.org:8080/a.png">'))
      .toEqual(['csp:frame https://www.youtube-nocookie.com', 'csp:script https://cdn.example.net', 'csp:img http://pics.example.org:8080']);
    expect(marks('<a href="https://example.com/">x</a><img alt="" src="/a.png"><IFRAME title="v" src="/embed/"></IFRAME><video src="https://v.example/a.mp4"></video>')).toEqual([]);
  });

  it('warns once per blocked origin of an embed (an iframe, a remote script or image), naming the directive and its pages; none when allowed', async () => {
    site = await copyOf('basic');
    site.edit('templates/pages.tsx', (t) => t.replace('return (<><h1>{title}</h1><p>{tags', 'return (<><iframe title="Video" src="https://www.youtube-nocookie.com/embed/abc" /><img alt="" src="https://cdn.example.net/a.png" /><h1>{title}</h1><p>{tags'));
    const r = await site.check();
    expect(r.code).toBe(0);
    expect(r.warnings.map((m) => [m.id, m.text, m.location?.file])).toEqual([
      ['CspBlocked', "2 pages /items/alpha/, /items/beta/ load https://www.youtube-nocookie.com in an <iframe>, which the Content-Security-Policy (frame-src 'none') blocks in the browser", 'content/items/alpha.yaml'],
      ['CspBlocked', "2 pages /items/alpha/, /items/beta/ load https://cdn.example.net in an <img>, which the Content-Security-Policy (img-src 'self' data:) blocks in the browser", 'content/items/alpha.yaml'],
    ]);
    expect(r.warnings[0]!.hint).toBe("Allow it where it is needed: on the route, csp: { 'frame-src': ['https://www.youtube-nocookie.com'] }, or for every page in sitegen.config.ts: csp: () => ({ 'frame-src': ['https://www.youtube-nocookie.com'] })");
    // Allowed by the route's own csp (the frame) and the site's (any https: image): nothing to say.
    site.edit('sitegen.config.ts', (t) => t.replace("title: i.data.title, source: i.file,", "title: i.data.title, source: i.file, csp: { 'frame-src': ['https://www.youtube-nocookie.com'] },")
      .replace("  css: ['templates/site.css'],", "  css: ['templates/site.css'],\n  csp: () => ({ 'img-src': ['https:'] }),"));
    const allowed = await site.check();
    expect(allowed.warnings).toEqual([]);
  });

  it('marks and warns for a form sent to another origin (form-action \'self\'), naming connect-src for fetch; none for a local action or once allowed', async () => {
    const marks = (html: string) => extractLinks(html).filter((l) => l.startsWith('csp:'));
    expect(marks('<form action="https://formspree.io/f/abc" method="post"><button>Send</button></form><form action="/api/subscribe"></form><form action="//forms.example.net/x"></form>'))
      .toEqual(['csp:form https://formspree.io', 'csp:form https://forms.example.net']);
    // Not a form's: an action attribute of another element is not marked, and a name ending in "n" is still a handler.
    expect(marks('<button formaction="https://x.example/">a</button><div onbeforeprintn="x"></div>')).toEqual(['csp:handler']);
    site = await copyOf('basic');
    site.edit('templates/pages.tsx', (t) => t.replace('return (<><h1>{title}</h1><p>{tags', 'return (<><form action="https://formspree.io/f/abc" method="post"><button>Send</button></form><h1>{title}</h1><p>{tags'));
    const r = await site.check();
    expect(r.code).toBe(0);
    expect(r.warnings.map((m) => [m.text, m.hint])).toEqual([[
      "2 pages /items/alpha/, /items/beta/ send a <form action> to https://formspree.io, which the Content-Security-Policy (form-action 'self') blocks in the browser",
      "Allow it where it is needed: on the route, csp: { 'form-action': ['https://formspree.io'] }, or for every page in sitegen.config.ts: csp: () => ({ 'form-action': ['https://formspree.io'] }) (an island that sends it with fetch() also needs { 'connect-src': ['https://formspree.io'] })",
    ]]);
    site.edit('sitegen.config.ts', (t) => t.replace("  css: ['templates/site.css'],", "  css: ['templates/site.css'],\n  csp: () => ({ 'form-action': ['https://formspree.io'] }),"));
    expect((await site.check()).warnings).toEqual([]);
  });

  it('reads source expressions as browsers match them: paths, case, default ports, port wildcards, http: for https, \'self\'', async () => {
    site = await copyOf('basic');
    site.edit('templates/pages.tsx', (t) => t.replace('return (<><h1>{title}</h1><p>{tags', 'return (<><iframe title="V" src="https://www.youtube-nocookie.com/embed/abc" /><script src="https://fixture.example/w.js" /><img alt="" src="https://cdn.example.net:8443/a.png" /><h1>{title}</h1><p>{tags'));
    const warned = async (csp: string) => {
      site!.edit('sitegen.config.ts', (t) => t.replace(/\n  csp: \(\) => \(.*\),/, '').replace("  css: ['templates/site.css'],", `  css: ['templates/site.css'],\n  csp: () => (${csp}),`));
      return (await site!.check()).warnings.map((w) => w.text.replace(/^.* load[s]? (\S+) in .*$/, '$1'));
    };
    // Allowed: a source with a path or a trailing slash, in capitals, with the default port; 'self' (the
    // script is the site's own URL, fixture.example); a port wildcard.
    expect(await warned(`{ 'frame-src': ['https://WWW.youtube-nocookie.com:443/embed/'], 'img-src': ['https://*.example.net:*'] }`)).toEqual([]);
    // http: allows https; a host wildcard with no port allows the default port only (8443 is not).
    expect(await warned(`{ 'frame-src': ['http:'], 'img-src': ['*.example.net'] }`)).toEqual(['https://cdn.example.net:8443']);
    // script-src-elem, when set, is what decides for <script src>.
    expect(await warned(`{ 'script-src-elem': ['https://other.example'] }`)).toEqual(['https://www.youtube-nocookie.com', 'https://fixture.example', 'https://cdn.example.net:8443']);
  });

  it('reads a page in linear time, whatever look-alikes it holds', () => {
    // A template's raw HTML can be any text: 40,000 unclosed "<script src=a " before one ">" must not be
    // read to that ">" 40,000 times (seconds), nor a long run of attribute names read back each time.
    for (const html of ['<script src=a '.repeat(40_000) + '>', ' onclick="'.repeat(16_000), ' o'.repeat(60_000) + 'n="x"', ' style="'.repeat(16_000)]) {
      expect(cpuMs(() => extractLinks(html)), html.slice(0, 20)).toBeLessThan(100);
    }
  });

  it('finds the tag of every remote src in linear time: eight times the page, about eight times the time', () => {
    // Remote srcs after the last '<' of the page, or in no tag: a search for the next '<' from every src (not
    // kept between them) read the rest of the page each time (64 times the time for 8 times the page).
    const shapes = [(n: number) => `<img alt="" ${' src="https://a.example/"'.repeat(n)}`, (n: number) => ' src="https://a.example/"'.repeat(n)];
    for (const make of shapes) {
      const small = make(4_000), big = make(32_000);
      const base = Math.max(3, Math.min(cpuMs(() => extractLinks(small)), cpuMs(() => extractLinks(small))));
      let ms = cpuMs(() => extractLinks(big));
      for (let again = 0; again < 3 && ms >= 20 * base; again++) ms = Math.min(ms, cpuMs(() => extractLinks(big)));
      expect(ms, `${make(1).slice(0, 20)}: ${base.toFixed(0)} → ${ms.toFixed(0)} ms`).toBeLessThan(20 * base);
    }
  });

  it('warns once for an inline style on many pages, at the template line, with the config line; build still succeeds', async () => {
    site = await styled();
    const r = await site.build();
    expect(r.code).toBe(0);
    expect(r.warnings.map((m) => m.id)).toEqual(['CspBlocked']);
    const [w] = r.warnings;
    expect(w.location).toMatchObject({ file: 'templates/pages.tsx', line: 12 });
    expect(w.location!.lineText).toContain("style={{ color: 'red' }}");
    expect(w.text).toBe('2 pages /items/alpha/, /items/beta/ have an inline style attribute (style="…"), which the Content-Security-Policy (style-src \'self\') blocks in the browser');
    expect(w.hint).toContain('csp: () => ({ \'style-src\': ["\'unsafe-inline\'"] })');
    expect(w.hint).toContain('a class in the site\'s stylesheet');
    expect(r.stderr).toContain(formatMessageLong(w));
    // check says the same.
    const c = await site.check();
    expect(c.code).toBe(0);
    expect(c.warnings).toEqual(r.warnings);
    expect(c.stderr).toContain(formatMessageLong(w));
    // In two places of the templates: a note at the other, saying what it is.
    site.edit('templates/pages.tsx', (t) => t.replace('<main>{children}</main>', '<main style={{ margin: 0 }}>{children}</main>'));
    const two = await site.check();
    expect(two.warnings[0]!.notes.map((n) => [n.text, n.location?.line])).toEqual([['also an inline style attribute (style="…")', 12]]);
  });

  it('says nothing when the site\'s csp allows inline styles', async () => {
    site = await styled((t) => t.replace("  css: ['templates/site.css'],", "  css: ['templates/site.css'],\n  csp: () => ({ 'style-src': [\"'unsafe-inline'\"] }),"));
    const r = await site.check();
    expect(r.code).toBe(0);
    expect(r.warnings).toEqual([]);
    expect(r.stderr).toBe('');
  });

  it('says nothing for pages whose route allows inline styles in its own csp, and names only the others', async () => {
    site = await styled((t) => t.replace("title: i.data.title, source: i.file,", "title: i.data.title, source: i.file, csp: i.slug === 'alpha' ? { 'style-src': [\"'unsafe-inline'\"] } : undefined,"));
    const r = await site.check();
    expect(r.code).toBe(0);
    expect(r.warnings.map((m) => m.text)).toEqual(['page /items/beta/ has an inline style attribute (style="…"), which the Content-Security-Policy (style-src \'self\') blocks in the browser']);
  });

  it('reads only HTML pages: a body route\'s file that holds the words is data', async () => {
    site = await copyOf('basic');
    const route = `{ path: '/data.txt', output: 'data.txt', component: NotFound, props: {}, title: 'Data', body: () => '<script>go()</script> <b style="x" onclick="y">' },`;
    site.edit('sitegen.config.ts', (t) => t.replace("    { path: '/404',", `    ${route}\n    { path: '/404',`));
    const r = await site.build();
    expect(r.code).toBe(0);
    expect(r.read('data.txt')).toContain('<script>go()</script> <b style="x" onclick="y">');
    expect(r.warnings).toEqual([]);
  });

  it('groups pages past three as "and N more", and warns for inline scripts and handlers written in a template', async () => {
    site = await copyOf('basic', {
      'content/items/gamma.yaml': 'title: Gamma\ntags: [a, b]\nprice: 3\n',
      'content/items/delta.yaml': 'title: Delta\ntags: [a, b]\nprice: 4\n',
    });
    site.edit('templates/pages.tsx', (t) => t.replace('return (<><h1>{title}</h1><p>{tags', 'return (<><h1 style={{ margin: 0 }}>{title}</h1><div dangerouslySetInnerHTML={{ __html: \'<button onclick="buy()">Buy</button>\' }} /><p>{tags'));
    site.edit('templates/pages.tsx', (t) => t.replace('<footer>footer</footer>', '<footer>footer</footer><script dangerouslySetInnerHTML={{ __html: \'console.log(1)\' }} />'));
    const r = await site.check();
    expect(r.code).toBe(0);
    const texts = r.warnings.map((m) => m.text);
    expect(texts).toContain('4 pages (/items/alpha/, /items/beta/, /items/delta/ and 1 more) have an inline style attribute (style="…"), which the Content-Security-Policy (style-src \'self\') blocks in the browser');
    expect(texts).toContain('4 pages (/items/alpha/, /items/beta/, /items/delta/ and 1 more) have an inline event handler attribute (onclick="…"), which the Content-Security-Policy (script-src \'self\') blocks in the browser');
    expect(texts.find((t) => t.includes('inline <script>'))).toMatch(/^\d+ pages \(\/, .* and \d+ more\) have an inline <script>/);
    expect(r.warnings).toHaveLength(3);
    // The inline script is said at the template line that writes it, not at a page's content file.
    const script = r.warnings.find((m) => m.text.includes('inline <script>'))!;
    expect(script.location).toMatchObject({ file: 'templates/pages.tsx', lineText: expect.stringContaining('<script dangerouslySetInnerHTML') });
  });

  it('warns about an island that instantiates WebAssembly, unless script-src has \'wasm-unsafe-eval\'', async () => {
    const island = [
      "import { useEffect } from 'react';",
      'export default function Search() {',
      "  useEffect(() => { void WebAssembly.instantiateStreaming(fetch('/search.wasm')); }, []);",
      '  return <p>search</p>;',
      '}',
    ].join('\n');
    site = await copyOf('basic', { 'templates/islands/Search.tsx': island });
    site.edit('templates/pages.tsx', (t) => t.replace("import Counter from './islands/Counter.tsx';", "import Counter from './islands/Counter.tsx';\nimport Search from './islands/Search.tsx';").replace('<Counter start={2} label="Clicks" />', '<Counter start={2} label="Clicks" /><Search />'));
    const r = await site.build();
    expect(r.code).toBe(0);
    expect(r.warnings).toHaveLength(1);
    const [w] = r.warnings;
    expect(w.id).toBe('CspBlocked');
    expect(w.text).toBe("island Search instantiates WebAssembly, which the Content-Security-Policy (script-src 'self') blocks in the browser");
    expect(w.location).toMatchObject({ file: 'templates/islands/Search.tsx', line: 3, column: 26 });
    expect(w.hint).toContain('csp: () => ({ \'script-src\': ["\'wasm-unsafe-eval\'"] })');
    expect(r.stderr).toContain('island Search instantiates WebAssembly');

    site.edit('sitegen.config.ts', (t) => t.replace("  css: ['templates/site.css'],", "  css: ['templates/site.css'],\n  csp: { 'script-src': [\"'wasm-unsafe-eval'\"] },"));
    const allowed = await site.build();
    expect(allowed.code).toBe(0);
    expect(allowed.warnings).toEqual([]);
  });

  it('dev prints the warning too, once', async () => {
    site = await styled();
    const dev = await site.dev();
    try {
      expect(dev.code).toBe(0);
      const out = dev.stderr();
      expect(out).toContain('templates/pages.tsx:12:');
      expect(out).toContain('have an inline style attribute');
      expect(out.split('have an inline style attribute')).toHaveLength(2);
    } finally {
      await dev.close();
    }
  });
});
