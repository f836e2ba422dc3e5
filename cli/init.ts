// `sitegen init [dir] [--template blog|docs|minimal]`: copies a starter site of init-template/<name>/ (shipped
// with the package) into dir; `minimal` when no template is named.
// A folder that holds only what installing sitegen leaves (package.json, its lock, node_modules, dotfiles,
// and the vendor/ of package tarballs Getting started installs it from)
// counts as empty: its package.json is merged (scripts added, its own dependency specs kept), so
// `npm install <sitegen tarball> && npx sitegen init` works as well as init followed by npm install. No
// file the folder has is overwritten without --force (its .gitignore is kept, and init says so), and no
// link is written through: with --force a link in the way is replaced as a link, its target untouched.
import { closest } from '../src/core/didYouMean.ts';
import fs from 'node:fs';
import path from 'node:path';
import { bold, dim, red } from './report.ts';
import { PACKAGE_DIR as PKG_DIR } from '../src/site/paths.ts';

const TEMPLATE = path.join(PKG_DIR, 'init-template');
/** What a folder may hold and still be "empty" for init. */
const KEEP = new Set(['package.json', 'package-lock.json', 'node_modules']);
/** npm drops files named .gitignore from packages, so the template names it without the dot. */
const RENAME: Record<string, string> = { gitignore: '.gitignore' };
/** The starters `--template` names, each a folder of init-template/. */
export const TEMPLATES = ['blog', 'docs', 'minimal'] as const;
export type TemplateName = (typeof TEMPLATES)[number];
const templateDir = (name: TemplateName) => path.join(TEMPLATE, name);

interface PackageJson { name?: string; version?: string; scripts?: Record<string, string>; dependencies?: Record<string, string>; devDependencies?: Record<string, string>; [k: string]: unknown }

const readJson = (file: string): PackageJson => JSON.parse(fs.readFileSync(file, 'utf8')) as PackageJson;

/** npm's rules for a package name, roughly: lowercase, no spaces, at most 214 characters. */
const packageName = (dir: string) => path.basename(dir).toLowerCase().replace(/[^a-z0-9._~-]+/g, '-').replace(/^[._-]+/, '').slice(0, 214) || 'my-site';

/**
 * The spec a new site's package.json names sitegen by. The package is installed from a tarball (it is not
 * on the registry yet: Getting started): when the project that installed this copy of it (`pkgDir` is in its
 * node_modules) names it by a `file:` tarball that exists, and the site is another folder, the tarball is
 * copied into the site's vendor/ and named there, so `npm install` in the new folder finds it; else the
 * version range the registry will answer.
 */
/** A path as a POSIX shell reads it back: as it is when plain, else in single quotes. */
const shellWord = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`);

/** Whether the package is on the npm registry (README.md, Your own site): until it is, a site that names it by a
 *  version range is told how to install it from a tarball of this copy. */
const ON_REGISTRY = false;

export function selfSpec(root: string, pkgDir = PKG_DIR): string {
  const self = readJson(path.join(pkgDir, 'package.json'));
  const range = `^${self.version}`;
  const modules = path.dirname(pkgDir);
  if (path.basename(modules) !== 'node_modules') return range;
  const project = path.dirname(modules);
  let spec: string | undefined;
  try { const p = readJson(path.join(project, 'package.json')); spec = p.dependencies?.[self.name!] ?? p.devDependencies?.[self.name!]; } catch { return range; }
  if (!spec?.startsWith('file:') || !spec.endsWith('.tgz')) return range;
  const tarball = path.resolve(project, spec.slice('file:'.length));
  if (!fs.existsSync(tarball)) return range;
  if (path.resolve(root) === path.resolve(project)) return spec;
  const into = path.join(root, 'vendor', path.basename(tarball));
  if (!fs.existsSync(into)) { fs.mkdirSync(path.dirname(into), { recursive: true }); fs.copyFileSync(tarball, into); }
  return `file:vendor/${path.basename(tarball)}`;
}

/** The starter's package.json for the site in `dir`, merged into the folder's own when there is one. */
function packageJsonText(template: string, have: PackageJson | null, dir: string): string {
  const self = readJson(path.join(PKG_DIR, 'package.json'));
  const tpl = readJson(path.join(template, 'package.json'));
  tpl.name = packageName(dir);
  // (a folder that names sitegen already keeps its spec: no tarball copied for it)
  const named = have?.dependencies?.[self.name!] ?? have?.devDependencies?.[self.name!];
  tpl.dependencies = { ...tpl.dependencies, [self.name!]: named ?? selfSpec(dir) };
  if (!have) return JSON.stringify(tpl, null, 2) + '\n';
  // The folder's own keys stay as they are, in their order; only what the site needs is added after them
  // (the starter's name, version and `private` are its own, not the folder's).
  const merged: PackageJson = { ...have };
  merged.type = 'module';
  merged.scripts = { ...have.scripts, ...Object.fromEntries(Object.entries(tpl.scripts ?? {}).filter(([n]) => !(n in (have.scripts ?? {})))) };
  // Keep what is installed already (e.g. a file: spec of a tarball); add what is missing.
  const installed = { ...have.dependencies, ...have.devDependencies };
  for (const key of ['dependencies', 'devDependencies'] as const) {
    const add = Object.fromEntries(Object.entries(tpl[key] ?? {}).filter(([n]) => !(n in installed)));
    const all = { ...have[key], ...add };
    if (Object.keys(all).length) merged[key] = all; else delete merged[key];
  }
  return JSON.stringify(merged, null, 2) + '\n';
}

/** What merging the starter's package.json changed in the folder's own `have` (its `now`), for init to say. */
function packageJsonChanges(have: PackageJson, now: PackageJson): string[] {
  const added = (a: Record<string, string> = {}, b: Record<string, string> = {}) => Object.keys(b).filter((k) => !(k in a));
  const out: string[] = [];
  if (have.type !== now.type) out.push(`"type": "${now.type}"`);
  const scripts = added(have.scripts, now.scripts);
  if (scripts.length) out.push(`scripts ${scripts.join(', ')}`);
  const deps = [...added(have.dependencies, now.dependencies), ...added(have.devDependencies, now.devDependencies)];
  if (deps.length) out.push(`dependencies ${deps.join(', ')}`);
  return out;
}

/** The build's folders a kept .gitignore at `file` does not list (a plain file only: a link is not read). */
function unignored(file: string): string[] {
  let text: string;
  try { if (!fs.lstatSync(file).isFile()) return []; text = fs.readFileSync(file, 'utf8'); } catch { return []; }
  // A folder's rule in any of its usual spellings: dist, /dist, dist/, dist/*, dist/**, **/dist (a BOM aside).
  const bare = (l: string) => { let r = l.trim(); for (const p of ['\ufeff', '/', '**/']) if (r.startsWith(p)) r = r.slice(p.length); for (const s of ['/**', '/*', '/']) if (r.endsWith(s)) r = r.slice(0, -s.length); return r; };
  const lines = new Set(text.split(/\r?\n/).map(bare));
  return ['dist', '.sitegen'].filter((d) => !lines.has(d));
}

/** One folder or file of the starter, where it goes. */
interface Entry { src: string; dest: string; rel: string; folder: boolean }

function templateEntries(from: string, to: string, rel: string, out: Entry[]): Entry[] {
  for (const e of fs.readdirSync(from, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const name = RENAME[e.name] && rel === '' ? RENAME[e.name]! : e.name;
    const entry = { src: path.join(from, e.name), dest: path.join(to, name), rel: rel ? `${rel}/${name}` : name, folder: e.isDirectory() };
    out.push(entry);
    if (entry.folder) templateEntries(entry.src, entry.dest, entry.rel, out);
  }
  return out;
}

/** What is at `p`, without following a link. */
function found(p: string): 'nothing' | 'file' | 'folder' | 'link' | 'other' {
  try {
    const s = fs.lstatSync(p);
    return s.isSymbolicLink() ? 'link' : s.isDirectory() ? 'folder' : s.isFile() ? 'file' : 'other';
  } catch (e: any) {
    if (e.code === 'ENOENT') return 'nothing';
    throw e;
  }
}

/** `have`: the folder's package.json, read before anything is written, to merge the starter's into. */
type Step = { entry: Entry; replace: boolean; have?: PackageJson };

/**
 * What init does with each starter entry, decided before anything is written. A file the folder has is
 * kept (package.json is merged) unless `force`; with `force` a file or a link in the way is replaced, and a
 * link only as a link: its target is never read or written. A folder of the starter's that is a file, or
 * anything but a plain file where a file goes, cannot be replaced: it is kept without `force`, an error with it.
 */
function plan(template: string, root: string, force: boolean): { steps: Step[]; kept: string[]; conflicts: string[] } {
  const steps: Step[] = [], kept: string[] = [], conflicts: string[] = [];
  let skip: string | null = null; // a folder kept as it is: nothing is written below it
  for (const entry of templateEntries(template, root, '', [])) {
    if (skip && entry.rel.startsWith(`${skip}/`)) continue;
    const have = found(entry.dest);
    const isPackageJson = entry.rel === 'package.json';
    if (have === 'nothing') steps.push({ entry, replace: false });
    else if (entry.folder && have === 'folder') continue;
    else if (have === 'link' && force) steps.push({ entry, replace: true });
    else if (have === 'file' && isPackageJson) {
      try {
        steps.push({ entry, replace: true, have: readJson(entry.dest) });
      } catch (e) {
        conflicts.push(`package.json cannot be merged with the starter's: ${(e as Error).message}`);
      }
    } else if (have === 'file' && !entry.folder && force) steps.push({ entry, replace: true });
    else {
      if (force) conflicts.push(`${entry.rel} is a ${have === 'folder' ? 'folder' : have === 'file' ? 'file' : 'special file'} where the starter has a ${entry.folder ? 'folder' : 'file'}`);
      else kept.push(entry.rel + (have === 'link' ? ' (a link)' : ''));
      if (entry.folder) skip = entry.rel;
    }
  }
  return { steps, kept, conflicts };
}

function apply(template: string, step: Step, root: string): void {
  const { entry } = step;
  // A link or file in the way goes first (a link as a link); the new entry is then created, never
  // opened where it stands (an exclusive create fails rather than follow a link put there meanwhile).
  if (step.replace) fs.rmSync(entry.dest, { force: true });
  if (entry.folder) fs.mkdirSync(entry.dest);
  else if (entry.rel === 'package.json') fs.writeFileSync(entry.dest, packageJsonText(template, step.have ?? null, root), { flag: 'wx' });
  else fs.copyFileSync(entry.src, entry.dest, fs.constants.COPYFILE_EXCL);
}

/** A folder of package tarballs only (`npm pack`'s files): init writes into it only the tarball of sitegen it names (selfSpec). */
function onlyTarballs(dir: string): boolean {
  try { return fs.statSync(dir).isDirectory() && fs.readdirSync(dir).every((n) => n.endsWith('.tgz') || n.startsWith('.')); } catch { return false; }
}

export async function runInit(dir: string, flags: { force?: boolean; template?: string }): Promise<number> {
  const name = flags.template ?? 'minimal';
  if (!(TEMPLATES as readonly string[]).includes(name)) {
    const near = closest(name, TEMPLATES);
    process.stderr.write(red(`✗ there is no starter template "${name}"${near ? `: did you mean "${near}"?` : ''}\n`)
      + `  hint: --template takes one of ${TEMPLATES.join(', ')}\n`);
    return 1;
  }
  const template = templateDir(name as TemplateName);
  const root = path.resolve(dir);
  if (fs.existsSync(root) && !fs.statSync(root).isDirectory()) {
    process.stderr.write(red(`✗ ${dir} is a file, not a folder\n`));
    return 1;
  }
  const present = fs.existsSync(root) ? fs.readdirSync(root).filter((n) => !KEEP.has(n) && !n.startsWith('.') && !(n === 'vendor' && onlyTarballs(path.join(root, n)))) : [];
  if (present.length && !flags.force) {
    process.stderr.write(red(`✗ ${root} is not empty (${present.slice(0, 5).join(', ')}${present.length > 5 ? ', …' : ''})\n`)
      + `  hint: pick a new folder (sitegen init my-site), or add --force to write the starter files into this one\n`);
    return 1;
  }
  fs.mkdirSync(root, { recursive: true });
  const { steps, kept, conflicts } = plan(template, root, !!flags.force);
  if (conflicts.length) {
    process.stderr.write(red(`✗ nothing written: ${conflicts.length === 1 ? 'a path' : 'paths'} of the starter site cannot be replaced in ${root}\n`)
      + conflicts.map((c) => `  ${c}\n`).join('') + `  hint: move ${conflicts.length === 1 ? 'it' : 'them'} away, or init into a new folder\n`);
    return 1;
  }
  for (const step of steps) apply(template, step, root);
  const merged = steps.find((st) => st.have);
  const changed = merged ? packageJsonChanges(merged.have!, readJson(merged.entry.dest)) : [];
  const missing = kept.includes('.gitignore') ? unignored(path.join(root, '.gitignore')) : [];
  const written = steps.filter((s) => !s.entry.folder).length;
  const rel = path.relative(process.cwd(), root);
  const cd = rel ? `cd ${shellWord(rel)} && ` : '';
  // Every package the site's package.json now names is in node_modules (init may have added some: TypeScript).
  const pkg = (() => { try { return readJson(path.join(root, 'package.json')); } catch { return null; } })();
  const wanted = Object.keys({ ...pkg?.dependencies, ...pkg?.devDependencies });
  const installed = wanted.length > 0 && wanted.every((d) => fs.existsSync(path.join(root, 'node_modules', d, 'package.json')));
  // Named by a version range while the registry has no such package: npm install would stop at it.
  const self = readJson(path.join(PKG_DIR, 'package.json'));
  const selfRange = (pkg?.dependencies?.[self.name!] ?? pkg?.devDependencies?.[self.name!])?.startsWith('^');
  const unpublished = !installed && !ON_REGISTRY && selfRange && !fs.existsSync(path.join(root, 'node_modules', self.name!, 'package.json'));
  const tgz = `${self.name}-${self.version}.tgz`;
  const next = unpublished
    ? `${self.name} is not on the npm registry yet, so npm install cannot fetch it: pack this copy of it once,\n`
      // (an installed copy has lib/ built and no scripts/ to build it with: packed as it is)
      + `        (cd ${shellWord(PKG_DIR)} && npm pack${fs.existsSync(path.join(PKG_DIR, 'scripts')) ? '' : ' --ignore-scripts'} --pack-destination /tmp)\n`
      + `        then ${cd}mkdir -p vendor && cp /tmp/${tgz} vendor/ && npm install ./vendor/${tgz} && npm run dev\n`
    : `${cd}${installed ? '' : 'npm install && '}npm run dev\n`;
  process.stdout.write(`${bold(`✓ created a ${name} site`)} in ${root} (${written} files)\n`
    + (changed.length ? `${dim('  added to your package.json:')} ${changed.join('; ')}\n` : '')
    + (kept.length ? `${dim('  kept your')} ${kept.join(', ')} ${dim(`(the starter's ${kept.length === 1 ? 'was' : 'were'} not written; --force replaces ${kept.length === 1 ? 'it' : 'them'})`)}\n` : '')
    + (missing.length ? `${dim('  hint:')} your .gitignore does not list ${missing.map((d) => `${d}/`).join(' and ')}: add ${missing.length === 1 ? 'it' : 'them'} (the build's output and its state)\n` : '')
    + `${dim('  next:')} ${next}`);
  return 0;
}
