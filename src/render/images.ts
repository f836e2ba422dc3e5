// image() and <Image>: what a template knows of a static image. image() gives its URL (the fingerprinted
// copy when the site asks for one, under the base) and its pixel width and height; <Image> renders it
// through the image pipeline: a <picture> with AVIF and WebP srcsets, the original format as fallback,
// width/height (no layout shift), lazy loading, or for the page's main image (`priority`) high fetch
// priority and a preload. The table is made by the build from static/ (output/staticImages.ts) and set by the
// renderer before each page, like the URL policy, so both are plain calls in any component. No Node API
// here: the package's public entry exports them to islands too; the engine makes the files (images/store.ts).
import { createElement, Fragment, type ReactElement } from 'react';
import type { ImageTable } from '../output/staticImages.ts';
import { ASPECT_RANGE, DEFAULT_IMAGE_SETTINGS, IMAGE_EXT, IMAGE_FORMATS, MAX_ASKED_WIDTH, aspectOf, isQuality, pictureModel, remoteImage, versionOf, isContentImage, type ContentImage, type ImageFacts, type ImageSettings, type ImageShape } from '../images/model.ts';
import { currentUrlPolicy, withBase } from './urls.ts';
import { errorAtCallSite } from './callSite.ts';
import { closest } from '../core/didYouMean.ts';

/** The one place the image table is kept between the renderer and the templates (set before each page). */
let current: { table: ImageTable; settings: ImageSettings; remote: readonly string[] } = { table: {}, settings: DEFAULT_IMAGE_SETTINGS, remote: [] };

export function setImageTable(table: ImageTable | undefined, settings: ImageSettings = DEFAULT_IMAGE_SETTINGS, remote: readonly string[] = []): void {
  current = { table: table ?? {}, settings, remote };
  linked = [];
}

export interface StaticImage {
  src: string;
  width: number;
  height: number;
}

/** In the browser, the images the islands of the page use, as their server renders noted them (see
 *  withImageSink): merged from each island's data-images attribute by the islands' runtime
 *  (islands/islandImages.ts), so an island renders in the browser what it rendered on the server. */
let browser: typeof current | null = null;
const state = (): typeof current => browser ?? current;

/** Takes in an island's data-images (the browser's runtime, before the island renders). */
export function adoptIslandImages(text: string): void {
  const noted = JSON.parse(text) as typeof current;
  browser = { table: { ...browser?.table, ...noted.table }, settings: noted.settings, remote: noted.remote };
}

/** The images a render inside `fn` looks up (an island's server render: island.tsx), with the settings. */
let sink: { table: ImageTable; used: boolean } | null = null;
export function withImageSink<T>(fn: () => T): { value: T; images: { table: ImageTable; settings: ImageSettings; remote: readonly string[] } | null } {
  const prev = sink;
  const s = (sink = { table: {}, used: false });
  try {
    const value = fn();
    return { value, images: s.used ? { table: s.table, settings: current.settings, remote: current.remote } : null };
  } finally {
    sink = prev;
  }
}

const lookup = (p: string) => {
  const key = p.startsWith('/') ? p : `/${p}`;
  const info = state().table[key];
  if (info && sink) { sink.table[key] = info; sink.used = true; }
  return info;
};

/** Why `p` names no image of static/: a format the pipeline does not read, or no such file (with the
 *  path of static/ a typo away, compared while the table is small enough). */
function noSuchImage(p: string): string {
  const dot = p.lastIndexOf('.');
  if (dot > p.lastIndexOf('/') && !IMAGE_EXT.test(p)) return `a ${p.slice(dot + 1).toUpperCase()} file is not an image the pipeline reads (${IMAGE_FORMATS}): convert it, for example to JPEG or WebP`;
  const paths = Object.keys(state().table);
  const near = paths.length <= 5_000 ? closest(p.startsWith('/') ? p : `/${p}`, paths) : undefined;
  // A path relative to a post ("./cover.jpg" from front matter) is read only by a Markdown image of that post.
  const relative = p.startsWith('./') || p.startsWith('../') ? '. A template reads images from static/ by their path there ("/img/cover.jpg"), not from a content file\'s folder: declare the field with imageFile() (import { imageFile } from \'sitegen-islands\'; cover: imageFile()) and give <Image> its value (src={cover}), or put the image in static/' : '';
  return `there is no such image in static/ (${IMAGE_FORMATS})${near ? `. Did you mean ${near}?` : ''}${relative}`;
}

/** An image's version in its own format `width` pixels wide (never wider than the image; an SVG or a GIF: its
 *  file), with its size and its URL under the base. */
function version(f: ImageFacts, width: number, shape?: ImageShape): StaticImage {
  const v = versionOf(f, state().settings, width, f.format, shape);
  return { src: `${currentUrlPolicy().base}${v.path}`, width: v.width, height: v.height };
}

/** The versions image() linked in the page being rendered on the server (setImageTable starts the list, the
 *  renderer takes it): the build makes them, though they may be in no attribute its link scan reads (a JSON
 *  body, JSON-LD, a style). None in the browser. */
let linked: string[] | null = null;
export function takeImageLinks(): string[] {
  const l = linked ?? [];
  linked = null;
  return l;
}

/** An island's props on the server: each imageFile() image in them has the versions <Image> shows by default
 *  linked (the build makes them, though the island may show an image only in the browser: a lightbox's next
 *  photo), and the site's settings go with the island, so the browser names the same versions. */
export function noteIslandImages(props: unknown): void {
  const visit = (v: unknown, depth: number): void => {
    if (!v || typeof v !== 'object' || depth > 16) return;
    if (isContentImage(v)) {
      if (sink) sink.used = true;
      const base = currentUrlPolicy().base;
      for (const f of pictureModel(v, state().settings, { alt: '', base }).files) linked?.push(`${base}${f}`);
      return;
    }
    for (const x of Array.isArray(v) ? v : Object.values(v)) visit(x, depth + 1);
  };
  visit(props, 0);
}

export interface ImageOptions {
  /** The width of the version to link, in pixels (a list page's thumbnail): never wider than the image. */
  width?: number;
  /** Cut to this aspect ratio: width / height as a number (1 for a square) or "16:9"; the middle is kept. */
  aspect?: number | string;
  /** The encoder's quality for this version, 1-100 (default: the site's images.quality). */
  quality?: number;
}

const SHAPE_OPTIONS = ['width', 'aspect', 'quality'];
const aspectHelp = `write width / height as a number from ${ASPECT_RANGE[0]} to ${ASPECT_RANGE[1]} (1 for a square, 1.5 for 3:2) or as "16:9"`;

/** The shape an aspect and a quality ask for, or what is wrong with one of them (its key and value, and what to write). */
function shapeOf(aspect: unknown, quality: unknown): { problem: { key: string; value: string; help: string } } | { shape: ImageShape } {
  const a = aspect === undefined ? undefined : aspectOf(aspect);
  if (a === null) return { problem: { key: 'aspect', value: JSON.stringify(aspect) ?? String(aspect), help: aspectHelp } };
  if (quality !== undefined && !isQuality(quality)) return { problem: { key: 'quality', value: JSON.stringify(quality) ?? String(quality), help: 'write a whole number from 1 to 100' } };
  return { shape: { ...(a !== undefined ? { aspect: a } : {}), ...(quality !== undefined ? { quality: quality as number } : {}) } };
}

/** An SVG or a GIF is published as it is: a crop or a quality asked of one would be dropped. */
const shapeDropped = (f: ImageFacts, shape: ImageShape): string | null =>
  (f.format === 'svg' || f.format === 'gif') && (shape.aspect !== undefined || shape.quality !== undefined)
    ? `${shape.aspect !== undefined ? 'aspect' : 'quality'} applies to photos (JPEG, PNG, WebP, AVIF): ${f.format === 'svg' ? 'an SVG' : 'a GIF'} is published as it is`
    : null;

/** A static image by its path under static/ ("/img/team.png"), or an imageFile() field's image: its URL, width
 *  and height. `width`: a version that wide instead. An unknown path throws, naming it (a located build error). */
export function image(p: string | ContentImage, options: ImageOptions = {}): StaticImage {
  const asked = options?.width;
  const shown = typeof p === 'string' ? `"${p}"` : describeSrc(p);
  // (an option it would drop, such as a height, is said, as <Image> says a prop it does not take)
  const other = Object.keys(options ?? {}).find((k) => !SHAPE_OPTIONS.includes(k) && (options as Record<string, unknown>)[k] !== undefined);
  if (other !== undefined) throw new Error(`image(${shown}, { ${other} }): image() takes { width, aspect, quality }${closest(other, SHAPE_OPTIONS) ? ` (did you mean ${closest(other, SHAPE_OPTIONS)}?)` : ''}; for other sizes and formats use <Image widths={…} sizes="…">`);
  if (asked !== undefined && !(Number.isInteger(asked) && asked >= 1 && asked <= MAX_ASKED_WIDTH)) throw new Error(`image(${shown}, { width: ${JSON.stringify(asked)} }): write a whole number of pixels from 1 to ${MAX_ASKED_WIDTH}`);
  const asking = shapeOf(options?.aspect, options?.quality);
  if ('problem' in asking) { const { key, value, help } = asking.problem; throw new Error(`image(${shown}, { ${key}: ${value} }): ${help}`); }
  const { shape } = asking;
  const versionOfFacts = (f: ImageFacts): StaticImage => {
    const dropped = shapeDropped(f, shape);
    if (dropped) throw new Error(`image(${shown}): ${dropped}`);
    const v = version(f, asked ?? state().settings.maxWidth, shape);
    linked?.push(v.src);
    return v;
  };
  if (typeof p !== 'string') {
    if (!isContentImage(p)) throw new Error(`image(${shown}): give it a path under static/ ("/img/team.png") or an imageFile() field's value`);
    if (sink) sink.used = true;
    return versionOfFacts(p);
  }
  const info = lookup(p);
  if (!info) throw new Error(`image("${p}"): ${noSuchImage(p)}`);
  if (asked !== undefined || shape.aspect !== undefined || shape.quality !== undefined) {
    if (!info.facts) throw new Error(`image("${p}", { … }): ${info.problem ?? 'the image cannot be read'}`);
    return versionOfFacts(info.facts);
  }
  return { src: withBase(info.src, currentUrlPolicy().base), width: info.width, height: info.height };
}

export interface ImageProps {
  /** The image's path under static/ ("/img/team.jpg"), an imageFile() field's value (a post's cover beside
   *  it), or a remote URL whose host is in images.remote. */
  src: string | ContentImage;
  /** What the image shows; "" for a decorative image. Required. */
  alt: string;
  /** The `sizes` attribute: how wide the image is shown (default: its width up to the viewport's). */
  sizes?: string;
  /** The page's main image (LCP): loaded at once with high priority and preloaded. One per page. */
  priority?: boolean;
  /** 'eager' loads it with the page (a logo in the header) without `priority`'s preload; default 'lazy'. */
  loading?: 'lazy' | 'eager';
  /** Widths for this image's srcsets (default: the site's images.widths). */
  widths?: number[];
  /** Cut to this aspect ratio: width / height as a number (1 for a square) or "16:9"; the middle is kept. */
  aspect?: number | string;
  /** The encoder's quality for this image's versions, 1-100 (default: the site's images.quality). */
  quality?: number;
  /** A remote image's size in pixels, to reserve its space (a local image's comes from its file). */
  width?: number;
  height?: number;
  className?: string;
  id?: string;
}

/** An error about an <Image>, located where the template wrote it when that is known (callSite.ts). */
const imageError = (props: ImageProps, text: string): Error => errorAtCallSite(props, text, Error);

const IMAGE_PROPS = ['src', 'alt', 'sizes', 'priority', 'loading', 'widths', 'aspect', 'quality', 'width', 'height', 'className', 'id'];

/** What is wrong with an <Image>'s props other than its alt, as a Markdown image's attributes are checked
 *  (images/markdown.ts): a prop it would drop, widths that are not whole pixels, an empty sizes. */
function propsProblem(p: ImageProps): string | null {
  for (const k of Object.keys(p)) {
    if (IMAGE_PROPS.includes(k)) continue;
    const near = closest(k, IMAGE_PROPS);
    return `it has a prop "${k}" <Image> does not take${near ? ` (did you mean ${near}?)` : ''}: it takes ${IMAGE_PROPS.join(', ')}`;
  }
  const { widths, sizes, priority, loading } = p;
  if (widths !== undefined && (!Array.isArray(widths) || !widths.length || widths.some((w) => !Number.isInteger(w) || w < 1 || w > MAX_ASKED_WIDTH))) {
    return `widths={${JSON.stringify(widths)}}: write whole numbers of pixels from 1 to ${MAX_ASKED_WIDTH}, e.g. widths={[480, 960]}`;
  }
  if (sizes !== undefined && (typeof sizes !== 'string' || !sizes.trim())) return 'sizes is empty: write the width it is shown at, e.g. sizes="(min-width: 60em) 50vw, 100vw", or leave it out';
  if (priority !== undefined && typeof priority !== 'boolean') return `priority={${JSON.stringify(priority)}}: priority is true or false (written alone: <Image priority …/>)`;
  if (loading !== undefined && loading !== 'lazy' && loading !== 'eager') return `loading=${JSON.stringify(loading)}: write "lazy" or "eager"`;
  for (const k of ['width', 'height'] as const) if (p[k] !== undefined && !(Number.isInteger(p[k]) && p[k]! >= 0)) return `${k}={${JSON.stringify(p[k])}}: write a whole number of pixels`;
  const asking = shapeOf(p.aspect, p.quality);
  return 'problem' in asking ? `${asking.problem.key}={${asking.problem.value}}: ${asking.problem.help}` : null;
}

/** A local image (of static/, or an imageFile() field's) as a responsive, optimized <picture> (SVG and GIF: an
 *  <img> of the file as it is). */
export function Image(props: ImageProps): ReactElement {
  const given = props.src as unknown;
  // (an imageFile() field's image carries its facts: no table to look up, and nothing of static/ is published for it)
  const content = typeof given === 'string' ? null : isContentImage(given) ? given : undefined;
  if (content === undefined) throw imageError(props, `<Image src={${describeSrc(given)}}>: src is a path under static/ ("/img/team.jpg"), an imageFile() field's value or a remote URL`);
  const src = content ? content.file : given as string;
  const { alt, sizes, priority, widths, className, id, aspect, quality } = props;
  const eager = props.loading === 'eager';
  if (typeof alt !== 'string') throw imageError(props, `<Image src="${src}">: alt is required — say what the image shows, or alt="" for a decorative image`);
  const problem = propsProblem(props);
  if (problem) throw imageError(props, `<Image src="${src}">: ${problem}`);
  const settings = state();
  if (sink) sink.used = true;
  const base = currentUrlPolicy().base;
  const remote = content ? null : remoteImage(src, settings.remote);
  if (remote) {
    if (!remote.listed) throw imageError(props, `<Image src="${src}">: the image is remote; only local images are processed. List its host in images.remote in sitegen.config.ts to show it as it is`);
    if (remote.blocked) throw imageError(props, `<Image src="${src}">: the image cannot load: ${remote.blocked}`);
    for (const k of ['widths', 'aspect', 'quality'] as const) if (props[k] !== undefined) throw imageError(props, `<Image src="${src}">: the image is remote and shown as it is, at one width: ${k} applies only to local images`);
    for (const k of ['width', 'height'] as const) if (props[k] === 0) throw imageError(props, `<Image src="${src}">: ${k}={0}: write the image's ${k} in pixels, or leave it out`);
    // Its size is not read (nothing of a remote image is): width and height are the template's, to reserve its space.
    return createElement('img', { src, alt, sizes, width: props.width, height: props.height, className, id, loading: priority || eager ? undefined : 'lazy', decoding: priority ? 'auto' : 'async', fetchPriority: priority ? 'high' : undefined });
  }
  const shape = (shapeOf(aspect, quality) as { shape: ImageShape }).shape; // (checked: propsProblem)
  const info = content ? { facts: content, ...version(content, settings.settings.maxWidth, shape) } : lookup(src);
  // A local image's size comes from its file: a width or height that says otherwise would be dropped (one that
  // agrees with the file, or with what image() gives for it, is the same).
  if (info?.facts) for (const k of ['width', 'height'] as const) {
    if (props[k] !== undefined && props[k] !== info.facts[k] && props[k] !== info[k]) throw imageError(props, `<Image src="${src}">: ${k}={${props[k]}}, but the image is ${info.facts.width}×${info.facts.height}: <Image> writes a local image's width and height from its file (and its versions' from widths${shape.aspect ? ' and aspect' : ''}); leave them out${shape.aspect ? '' : ', or crop it with aspect={…}'}`);
  }
  if (!info) throw imageError(props, `<Image src="${src}">: ${noSuchImage(src)}`);
  if (!info.facts) throw imageError(props, `<Image src="${src}">: ${'problem' in info && info.problem ? info.problem : 'the image cannot be read'}`);
  const dropped = shapeDropped(info.facts, shape);
  if (dropped) throw imageError(props, `<Image src="${src}">: ${dropped}`);
  const m = pictureModel(info.facts, settings.settings, { alt, sizes, priority, widths, base, ...shape });
  const img = createElement('img', {
    src: m.img.src, srcSet: m.img.srcset, sizes: m.img.sizes, alt, width: m.img.width, height: m.img.height,
    loading: eager ? undefined : m.img.loading, decoding: m.img.decoding, fetchPriority: m.img.fetchpriority, className, id,
  });
  const picture = m.sources.length
    ? createElement('picture', null, ...m.sources.map((s) => createElement('source', { key: s.type, type: s.type, srcSet: s.srcset, sizes: s.sizes })), img)
    : img;
  // An <img> on its own (an SVG or a GIF) that loads at once is preloaded by React DOM itself, in the
  // page's head: a link of ours would be a second one.
  if (!priority || !m.sources.length) return picture;
  // The page's one preload (React DOM hoists it out of the body; document.tsx puts it in the head): the
  // first format the browser may take (it skips a type it cannot decode; React DOM preloads no <img> inside
  // a <picture>). Only a priority image gets one: the others load lazily, when they come into view.
  const first = m.sources[0]!;
  const link = createElement('link', { rel: 'preload', as: 'image', href: m.img.src, imageSrcSet: first.srcset || undefined, imageSizes: first.sizes, type: first.type, fetchPriority: 'high' });
  return createElement(Fragment, null, link, picture);
}

/** What a src that is neither a path nor an image names, for a message. */
function describeSrc(v: unknown): string {
  if (v === null || typeof v !== 'object') return String(v);
  const keys = Object.keys(v);
  return `{${keys.slice(0, 4).join(', ')}${keys.length > 4 ? ', …' : ''}}`;
}

