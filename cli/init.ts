// `sitegen init [dir]`: copies the starter site in init-template/ (shipped with the package) into dir.
// A folder that holds only what installing sitegen leaves (package.json, its lock, node_modules, dotfiles)
// counts as empty: its package.json is merged (scripts added, its own dependency specs kept), so
// `npm install <sitegen tarball> && npx sitegen init` works as well as init followed by npm install.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bold, dim, red } from './report.ts';

const PKG_DIR = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const TEMPLATE = path.join(PKG_DIR, 'init-template');
/** What a folder may hold and still be "empty" for init. */
const KEEP = new Set(['package.json', 'package-lock.json', 'node_modules']);
/** npm drops files named .gitignore from packages, so the template names it without the dot. */
const RENAME: Record<string, string> = { gitignore: '.gitignore' };

interface PackageJson { name?: string; version?: string; scripts?: Record<string, string>; dependencies?: Record<string, string>; devDependencies?: Record<string, string>; [k: string]: unknown }

const readJson = (file: string): PackageJson => JSON.parse(fs.readFileSync(file, 'utf8')) as PackageJson;

/** npm's rules for a package name, roughly: lowercase, no spaces, at most 214 characters. */
const packageName = (dir: string) => path.basename(dir).toLowerCase().replace(/[^a-z0-9._~-]+/g, '-').replace(/^[._-]+/, '').slice(0, 214) || 'my-site';

function mergePackageJson(target: string, dir: string): void {
  const self = readJson(path.join(PKG_DIR, 'package.json'));
  const tpl = readJson(path.join(TEMPLATE, 'package.json'));
  tpl.name = packageName(dir);
  tpl.dependencies = { ...tpl.dependencies, [self.name!]: `^${self.version}` };
  if (!fs.existsSync(target)) { fs.writeFileSync(target, JSON.stringify(tpl, null, 2) + '\n'); return; }
  const have = readJson(target);
  const merged: PackageJson = { ...tpl, ...have };
  merged.name = have.name ?? tpl.name;
  merged.type = 'module';
  merged.scripts = { ...tpl.scripts, ...have.scripts };
  // Keep what is installed already (e.g. a file: spec of a tarball); add what is missing.
  const installed = { ...have.dependencies, ...have.devDependencies };
  for (const key of ['dependencies', 'devDependencies'] as const) {
    const add = Object.fromEntries(Object.entries(tpl[key] ?? {}).filter(([n]) => !(n in installed)));
    const all = { ...have[key], ...add };
    if (Object.keys(all).length) merged[key] = all; else delete merged[key];
  }
  fs.writeFileSync(target, JSON.stringify(merged, null, 2) + '\n');
}

function copyTree(from: string, to: string, written: string[], root: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    const src = path.join(from, e.name);
    const dest = path.join(to, RENAME[e.name] && from === TEMPLATE ? RENAME[e.name]! : e.name);
    if (e.isDirectory()) copyTree(src, dest, written, root);
    else if (from === TEMPLATE && e.name === 'package.json') { mergePackageJson(dest, root); written.push(dest); }
    else { fs.copyFileSync(src, dest); written.push(dest); }
  }
}

export async function runInit(dir: string, flags: { force?: boolean }): Promise<number> {
  const root = path.resolve(dir);
  if (fs.existsSync(root) && !fs.statSync(root).isDirectory()) {
    process.stderr.write(red(`✗ ${dir} is a file, not a folder\n`));
    return 1;
  }
  const present = fs.existsSync(root) ? fs.readdirSync(root).filter((n) => !KEEP.has(n) && !n.startsWith('.')) : [];
  if (present.length && !flags.force) {
    process.stderr.write(red(`✗ ${root} is not empty (${present.slice(0, 5).join(', ')}${present.length > 5 ? ', …' : ''})\n`)
      + `  hint: pick a new folder (sitegen init my-site), or add --force to write the starter files into this one\n`);
    return 1;
  }
  const written: string[] = [];
  copyTree(TEMPLATE, root, written, root);
  const rel = path.relative(process.cwd(), root);
  const cd = rel ? `cd ${rel} && ` : '';
  const installed = fs.existsSync(path.join(root, 'node_modules', 'react'));
  process.stdout.write(`${bold('✓ created a site')} in ${root} (${written.length} files)\n`
    + `${dim('  next:')} ${cd}${installed ? '' : 'npm install && '}npm run dev\n`);
  return 0;
}
