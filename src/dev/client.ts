// The dev client, injected into every served page in dev mode only, as an external script so the strict
// CSP (script-src 'self') holds. It listens to /__sitegen/events, reloads the page when its route was
// rebuilt, and shows build errors in an overlay: a shadow root styled by /__sitegen/overlay.css (style-src
// 'self'), filled with textContent only, so no message can inject markup. Uncaught errors in the page (an
// island throwing while it hydrates, renders or handles an event) are sent to /__sitegen/error, which maps
// them to the island's source and prints them in the terminal; the overlay shows them under the build's.
interface OverlayError { title: string; text: string; file: string | null; line: number; column: number; frame: string; hint: string | null }
interface Reload { paths: string[]; assets: string[] }

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
    return [buildErrors.length ? n(buildErrors.length, 'build error') : '', islandErrors.length ? n(islandErrors.length, 'island error') : ''].filter(Boolean).join(', ');
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
    panel.setAttribute('aria-label', buildErrors.length ? 'Build errors' : 'Island errors');
    const head = el('div', 'head');
    const note = buildErrors.length ? ' the page shows the last good build; fix the file and it reloads' : ' thrown in this page; fix the file and it reloads';
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
      item.append(el('pre', 'frame', e.frame));
      if (e.hint) item.append(el('div', 'hint', `hint: ${e.hint}`));
      panel.append(item);
    }
    shadow.append(css, el('div', 'backdrop'), panel);
    document.body.append(host);
    root.dataset.sitegenErrors = String(errors.length);
  }

  function references(url: string): boolean {
    if (location.pathname === url) return true;
    for (const e of document.querySelectorAll<HTMLElement>('[src],[href],[srcset]')) {
      for (const attr of ['src', 'href', 'srcset']) if (e.getAttribute(attr)?.split(/[\s,?#]/).includes(url)) return true;
    }
    return false;
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
      // The route served, or the URL itself: a 404 shown at a path that has just become a page reloads too.
      const here = location.pathname.endsWith('/') ? location.pathname : `${location.pathname}/`;
      const mine = (p: string) => p === '*' || p === route || p === location.pathname || p === here;
      if (change.paths.some(mine) || change.assets.some(references)) location.reload();
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
