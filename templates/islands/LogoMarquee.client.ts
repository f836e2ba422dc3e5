// Upgrades marquee text marks to logos: tries the local file, then the CDN; only an image that actually
// loaded is shown (as decoration: the name beside it is the accessible text). Nothing is shown broken.
function load(src: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => (img.naturalWidth > 1 ? resolve(src) : reject(new Error('empty image')));
    img.onerror = () => reject(new Error(`no image at ${src}`));
    img.src = src;
  });
}

export function enhance(root: HTMLElement): void {
  const found = new Map<string, Promise<string | null>>();
  for (const li of root.querySelectorAll<HTMLElement>('li[data-logo-cdn]')) {
    const { logoLocal, logoCdn } = li.dataset;
    const key = `${logoLocal ?? ''}|${logoCdn}`;
    // The looped copy of an item reuses the first one's result: one request per logo.
    if (!found.has(key)) {
      const attempt = (logoLocal ? load(logoLocal).catch(() => load(logoCdn!)) : load(logoCdn!)).catch(() => null);
      found.set(key, attempt);
    }
    found.get(key)!.then((src) => {
      if (!src) { li.dataset.logo = 'text'; return; }
      const img = document.createElement('img');
      img.src = src;
      img.alt = '';
      img.width = 24;
      img.height = 24;
      img.decoding = 'async';
      li.querySelector('.logo-mark__initial')?.replaceWith(img);
      li.dataset.logo = 'image';
    });
  }
}
