// The dev client, injected into every served page in dev mode only, as an external script so the strict
// CSP (script-src 'self') holds. It listens to /__sitegen/events, reloads the page when its route was
// rebuilt, and shows build errors in an overlay: a shadow root styled by /__sitegen/overlay.css (style-src
// 'self'), filled with textContent only, so no message can inject markup. Uncaught errors in the page (an
// island throwing while it hydrates, renders or handles an event) are sent to /__sitegen/error, which maps
// them to the island's source and prints them in the terminal; the overlay shows them under the build's.
//
// Hot updates: a change to this page is applied in place, not by a reload. Replaced stylesheets are swapped
// (the new <link> loads before the old one goes: no flash), the page's new HTML (carried by the event when
// the page was open while it rendered, else fetched) is morphed into the open one (src/dev/hmrMorph.ts:
// scroll, focus and running islands kept), and islands with a new module
// are updated through the islands runtime's dev half (src/dev/hmrRuntime.ts): React islands with Fast
// Refresh, keeping their state; enhancement islands re-run on a fresh copy of their element. What cannot
// be applied (React moved to another chunk, a new kind of island, a failed update) reloads this page only.
import { morph } from './hmrMorph.ts';

interface OverlayError { id: string; title: string; text: string; file: string | null; line: number; column: number; message: string; code: string; notes: string[]; hint: string | null }
interface HotChange { css: [string, string][]; islands: Record<string, { url: string; react: boolean }>; reactMoved: boolean }
interface Reload { paths: string[]; assets: string[]; hot?: HotChange; except?: string[]; html?: Record<string, string> }
interface Hmr {
  has(name: string): boolean;
  mount(el: HTMLElement): Promise<void>;
  unmount(el: Element): void;
  update(name: string, url: string, react: boolean): Promise<boolean>;
  retarget(name: string, url: string): void;
}

(() => {
  const script = document.currentScript as HTMLScriptElement | null;
  const route = script?.dataset.route ?? location.pathname;
  const version = script?.dataset.version ?? '0';
  const root = document.documentElement;
  let serverId: string | null = null;
  let host: HTMLElement | null = null;
  let buildErrors: OverlayError[] = [];
  const islandErrors: OverlayError[] = [];
  const reported = new Set<string>();
  let reloadWhenBuilt = false, events = 0, pagesAt = 0; // (the stream's events counted, and the last that said pages changed)

  function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, text?: string): HTMLElementTagNameMap[K] {
    const e = document.createElement(tag);
    e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function hide(): void {
    host?.remove();
    host = null;
    delete root.dataset.sitegenErrors;
  }

  /** Both kinds of problem, or nothing when there are none. */
  function render(): void {
    if (buildErrors.length || islandErrors.length) show(); else hide();
  }

  function headline(): string {
    const n = (count: number, what: string) => `${count} ${what}${count === 1 ? '' : 's'}`;
    const scripts = islandErrors.filter((e) => e.id === 'ScriptError').length;
    return [buildErrors.length ? n(buildErrors.length, 'build error') : '', islandErrors.length > scripts ? n(islandErrors.length - scripts, 'island error') : '', scripts ? n(scripts, 'script error') : ''].filter(Boolean).join(', ');
  }

  function show(): void {
    const errors = [...buildErrors, ...islandErrors];
    hide();
    host = document.createElement('sitegen-dev-overlay');
    const shadow = host.attachShadow({ mode: 'open' });
    const css = document.createElement('link');
    css.rel = 'stylesheet';
    css.href = '/__sitegen/overlay.css';
    const panel = el('div', 'panel');
    panel.setAttribute('role', 'alertdialog');
    panel.setAttribute('aria-label', buildErrors.length ? 'Build errors' : 'Errors in the browser');
    const head = el('div', 'head');
    const note = buildErrors.length ? ' the page shows the last good build; fix the file and it updates' : ' thrown in this page; fix the file and it updates';
    head.append(el('strong', 'count', headline()), el('span', 'note', note));
    const close = el('button', 'close', '×');
    close.type = 'button';
    close.setAttribute('aria-label', 'Hide until the next change');
    close.addEventListener('click', hide);
    head.append(close);
    panel.append(head);
    for (const e of errors) {
      const item = el('section', 'error');
      item.append(el('div', 'title', e.title));
      if (e.file) item.append(el('div', 'where', e.line ? `${e.file}:${e.line}:${e.column}` : e.file));
      // The message and notes wrap; the source line keeps its caret under the column, and scrolls.
      const frame = el('div', 'frame');
      frame.append(el('div', 'message', e.message));
      if (e.code) {
        const code = el('pre', 'code', e.code);
        code.setAttribute('role', 'region');
        code.setAttribute('aria-label', `Source line ${e.line}`);
        frame.append(code);
      }
      for (const n of e.notes) frame.append(el('div', 'more', `note: ${n}`));
      item.append(frame);
      if (e.hint) item.append(el('div', 'hint', `hint: ${e.hint}`));
      panel.append(item);
    }
    shadow.append(css, el('div', 'backdrop'), panel);
    document.body.append(host);
    // A source line wider than the panel scrolls: reached by keyboard then, and only then (measured once the
    // overlay's stylesheet has given the panel its width).
    const focusable = () => { for (const code of shadow.querySelectorAll<HTMLElement>('.code')) code.tabIndex = code.scrollWidth > code.clientWidth ? 0 : -1; };
    css.addEventListener('load', focusable);
    focusable();
    root.dataset.sitegenErrors = String(errors.length);
  }

  function references(url: string): boolean {
    if (location.pathname === url) return true;
    for (const e of document.querySelectorAll<HTMLElement>('[src],[href],[srcset]')) {
      for (const attr of ['src', 'href', 'srcset']) if (e.getAttribute(attr)?.split(/[\s,?#]/).includes(url)) return true;
    }
    return false;
  }

  // The server HTML each island was mounted from: an enhancement island whose markup changed is re-run.
  const serverHtml = new WeakMap<Element, string>();
  for (const e of document.querySelectorAll('sitegen-island')) serverHtml.set(e, e.outerHTML);
  let updates = 0;
  let queue: Promise<void> = Promise.resolve();

  const pathOf = (href: string) => { try { return new URL(href, location.href).pathname; } catch { return href; } };

  /** Puts `href` in place of `old` once it has loaded, so the page is never without its styles. */
  function swapStylesheet(old: HTMLLinkElement, href: string): Promise<void> {
    return new Promise((resolve) => {
      const next = old.cloneNode() as HTMLLinkElement;
      next.href = href;
      const done = () => { old.remove(); resolve(); };
      next.addEventListener('load', done, { once: true });
      next.addEventListener('error', done, { once: true });
      old.after(next);
    });
  }

  function stylesheets(doc: Document): HTMLLinkElement[] {
    return [...doc.head.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')];
  }

  /** The <head>: title, description and stylesheets follow the new page; scripts stay as they ran. */
  async function morphHead(next: Document): Promise<void> {
    if (document.title !== next.title) document.title = next.title;
    for (const m of next.head.querySelectorAll<HTMLMetaElement>('meta[name]')) {
      const mine = document.head.querySelector<HTMLMetaElement>(`meta[name="${CSS.escape(m.name)}"]`);
      if (mine && mine.content !== m.content) mine.content = m.content;
    }
    const want = stylesheets(next).map((l) => pathOf(l.getAttribute('href') ?? ''));
    const have = stylesheets(document);
    const stale = have.filter((l) => !want.includes(pathOf(l.href)));
    const missing = want.filter((h) => !have.some((l) => pathOf(l.href) === h));
    const swaps: Promise<void>[] = [];
    missing.forEach((href, i) => {
      const old = stale[i];
      if (old) swaps.push(swapStylesheet(old, href));
      else { const l = document.createElement('link'); l.rel = 'stylesheet'; l.href = href; document.head.append(l); }
    });
    stale.slice(missing.length).forEach((l) => l.remove());
    await Promise.all(swaps);
  }

  /** The islands' errors belong to the code they ran; new code reports its own, if it throws again. */
  function clearIslandErrors(): void {
    if (!islandErrors.length) return;
    islandErrors.length = 0;
    reported.clear();
    render();
  }

  async function apply(change: Reload, mine: boolean): Promise<void> {
    const hot = change.hot ?? { css: [], islands: {}, reactMoved: false };
    const hmr = (window as any).__sitegenHmr as Hmr | undefined;
    // Stylesheets first, from the event alone: nothing else to wait for.
    const swaps = hot.css.flatMap(([from, to]) => stylesheets(document).filter((l) => pathOf(l.href) === from).map((l) => swapStylesheet(l, to)));
    const islands = [...document.querySelectorAll<HTMLElement>('sitegen-island')];
    const names = new Set(islands.map((e) => e.dataset.island ?? ''));
    const touched = mine || Object.keys(hot.islands).some((n) => names.has(n));
    if (touched && hot.reactMoved && islands.some((e) => e.hasAttribute('data-props'))) throw new Error('React moved to another chunk');
    if (touched && islands.length && !hmr) throw new Error('the islands runtime has no hot updates');
    // New modules first, so the islands a morph mounts start from them.
    const updated = new Set<string>();
    for (const [name, { url, react }] of Object.entries(hot.islands)) {
      if (!hmr) break;
      if (names.has(name)) { if (await hmr.update(name, url, react)) updated.add(name); } else hmr.retarget(name, url);
    }
    if (!mine) {
      // A bundle made ahead of its rebuild (the page's HTML follows, if it changed): enhancement islands
      // with a new module re-run on a fresh copy of the markup they were mounted from.
      for (const e of islands) {
        const html = serverHtml.get(e);
        if (e.hasAttribute('data-props') || !updated.has(e.dataset.island ?? '') || !html) continue;
        const t = document.createElement('template');
        t.innerHTML = html;
        const fresh = t.content.firstElementChild as HTMLElement;
        hmr!.unmount(e);
        e.replaceWith(fresh);
        serverHtml.set(fresh, html);
        await hmr!.mount(fresh);
      }
      await Promise.all(swaps);
      if (updated.size) clearIslandErrors();
      if (updated.size || swaps.length) root.dataset.sitegenUpdates = String(++updates);
      return;
    }
    const next = new DOMParser().parseFromString(change.html?.[route] ?? await fetchPage(), 'text/html');
    await Promise.all(swaps);
    await morphHead(next);
    const { added, removed } = morph(document.body, next.body, {
      island(current, incoming) {
        const same = ['data-island', 'data-props', 'data-hydrate', 'data-prefix'].every((a) => current.getAttribute(a) === incoming.getAttribute(a));
        // A React island's markup is React's own (Fast Refresh updated its code); an enhancement island runs
        // on its server markup, so new markup or a new module means a fresh copy and a new run.
        if (same && (current.hasAttribute('data-props') || (!updated.has(current.dataset.island ?? '') && serverHtml.get(current) === incoming.outerHTML))) return 'keep';
        return 'replace';
      },
    });
    for (const e of removed) hmr?.unmount(e);
    if (added.length && (!hmr || added.some((e) => !hmr.has(e.dataset.island ?? '')))) throw new Error('a new kind of island');
    for (const e of added) serverHtml.set(e, e.outerHTML);
    if (updated.size || added.length) clearIslandErrors();
    await Promise.all(added.map((e) => hmr!.mount(e)));
    root.dataset.sitegenUpdates = String(++updates);
  }

  /** This page's HTML as the server has it now. */
  async function fetchPage(): Promise<string> {
    const res = await fetch(location.href, { cache: 'no-store', headers: { Accept: 'text/html' } });
    if (res.redirected || !(res.headers.get('content-type') ?? '').includes('text/html')) throw new Error('not a page any more');
    return res.text();
  }

  function connect(): void {
    const source = new EventSource(`/__sitegen/events?route=${encodeURIComponent(route)}&v=${encodeURIComponent(version)}`);
    source.addEventListener('hello', (ev) => {
      const { id } = JSON.parse((ev as MessageEvent).data) as { id: string };
      // A different id means the dev server restarted: what this page shows may be stale.
      if (serverId && serverId !== id) location.reload();
      serverId = id;
      root.dataset.sitegenDev = 'connected';
    });
    source.addEventListener('errors', (ev) => {
      buildErrors = JSON.parse((ev as MessageEvent).data) as OverlayError[];
      render();
    });
    source.addEventListener('reload', (ev) => {
      const change = JSON.parse((ev as MessageEvent).data) as Reload;
      const seq = ++events;
      if (change.paths.length) pagesAt = seq;
      if (reloadWhenBuilt && change.paths.length) { location.reload(); return; } // (put off until the rebuild's pages: below)
      // The route served, or the URL itself: a 404 shown at a path that has just become a page reloads too.
      const here = location.pathname.endsWith('/') ? location.pathname : `${location.pathname}/`;
      const mine = (p: string) => p === '*' || p === route || p === location.pathname || p === here;
      if (change.assets.some(references)) { location.reload(); return; }
      // A page told ahead of the rebuild's end (it was open: rendered first) is not updated twice.
      const listed = change.paths.some(mine) && !(change.except ?? []).some(mine);
      // The placeholder shown before the first good build has nothing worth keeping.
      if (listed && route === '*') { location.reload(); return; }
      if (!listed && !change.hot?.css.length && !Object.keys(change.hot?.islands ?? {}).length) return;
      // One update at a time, in order; one that cannot be applied reloads this page (only this one).
      queue = queue.then(() => apply(change, listed)).catch((e) => {
        console.info('sitegen: reloading, the change could not be applied in place:', e);
        // A bundle made ahead of its rebuild (no pages yet): a reload now would get the last build's pages and
        // bundle; it waits for the rebuild's, which come in a later event (unless one came meanwhile).
        if (!change.paths.length && pagesAt < seq) reloadWhenBuilt = true;
        else location.reload();
      });
    });
    source.addEventListener('error', () => { root.dataset.sitegenDev = 'disconnected'; });
  }

  /** Sends an uncaught error to the dev server, which locates it (source maps) and prints it; shows its answer. */
  function report(error: unknown, fallback: string): void {
    const e = error as { message?: unknown; stack?: unknown; name?: unknown } | null;
    const text = e && typeof e.message === 'string' ? `${typeof e.name === 'string' && e.name !== 'Error' ? `${e.name}: ` : ''}${e.message}` : String(error ?? fallback);
    const stack = e && typeof e.stack === 'string' ? e.stack : '';
    // React may report one error more than once (a retried render); the overlay lists it once.
    const key = `${text}\n${stack.split('\n').slice(0, 3).join('\n')}`;
    if (reported.has(key)) return;
    reported.add(key);
    fetch('/__sitegen/error', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ message: text, stack, page: location.pathname }) })
      .then((r) => (r.ok ? r.json() as Promise<OverlayError[]> : []))
      .then((list) => { islandErrors.push(...list); render(); })
      .catch(() => { /* the dev server is gone: the 'error' event of the stream says so */ });
  }

  // The hydration runtime catches an island that fails to load or hydrate (a throw at its module's top
  // level, a missing export) and logs it with console.error, so production pages carry no dev hook; dev
  // reads that log line to report the error like any uncaught one.
  const consoleError = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    consoleError(...args);
    if (typeof args[0] === 'string' && /^sitegen: island .* failed$/.test(args[0]) && args[1] instanceof Error) report(args[1], args[0]);
  };
  window.addEventListener('error', (ev) => report(ev.error ?? ev.message, ev.message));
  window.addEventListener('unhandledrejection', (ev) => report(ev.reason, 'Unhandled promise rejection'));
  connect();
})();
