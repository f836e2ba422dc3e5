// The dev client, injected into every served page in dev mode only, as an external script so the strict
// CSP (script-src 'self') holds. It listens to /__sitegen/events, reloads the page when its route was
// rebuilt, and shows build errors in an overlay: a shadow root styled by /__sitegen/overlay.css (style-src
// 'self'), filled with textContent only, so no message can inject markup.
interface OverlayError { title: string; text: string; file: string | null; line: number; column: number; frame: string; hint: string | null }
interface Reload { paths: string[]; assets: string[] }

(() => {
  const script = document.currentScript as HTMLScriptElement | null;
  const route = script?.dataset.route ?? location.pathname;
  const version = script?.dataset.version ?? '0';
  const root = document.documentElement;
  let serverId: string | null = null;
  let host: HTMLElement | null = null;

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

  function show(errors: OverlayError[]): void {
    hide();
    host = document.createElement('sitegen-dev-overlay');
    const shadow = host.attachShadow({ mode: 'open' });
    const css = document.createElement('link');
    css.rel = 'stylesheet';
    css.href = '/__sitegen/overlay.css';
    const panel = el('div', 'panel');
    panel.setAttribute('role', 'alertdialog');
    panel.setAttribute('aria-label', 'Build errors');
    const head = el('div', 'head');
    head.append(el('strong', 'count', `${errors.length} build error${errors.length === 1 ? '' : 's'}`), el('span', 'note', ' the page shows the last good build; fix the file and it reloads'));
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
      const errors = JSON.parse((ev as MessageEvent).data) as OverlayError[];
      if (errors.length) show(errors); else hide();
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

  connect();
})();
