// The package as a stranger installs it (tests/unit/package.test.ts): `npm pack` of this repository, then
// `npm install` of the tarball with a site's peers into a new project outside it. Both cost tens of seconds
// (the prepack's bundle and declarations, npm unpacking TypeScript and React, the postinstall's vendor
// bundles), and what they make depends only on what goes in: every file the tarball is made from, the lock
// file, Node's and npm's versions and the peers asked for. So the installed project is kept in
// node_modules/.cache/sitegen-tests/package/<hash of all that>/ and each run copies it to its own folder (the
// tests change the project); an edit to any of those files packs and installs again.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from './cli.ts';

const CACHE = path.join(REPO, 'node_modules/.cache/sitegen-tests/package');
/** What the tarball is made from: what it ships and what its prepack (scripts/build-package.mjs) reads. */
const SOURCES = ['bin', 'cli', 'src', 'init-template'];
const FILES = ['package.json', 'package-lock.json', '.npmignore', '.gitignore', 'tsconfig.json', 'tsconfig.types.json', 'scripts/build-package.mjs', 'README.md', 'LICENSE'];

export type Run = (cmd: string, args: string[], cwd: string) => { code: number | null; stdout: string; out: string };

function key(peers: string[], npmVersion: string): string {
  const hash = createHash('sha256').update(`${process.version}\0${npmVersion}\0${peers.join(' ')}\0`);
  const add = (rel: string) => hash.update(`${rel}\0`).update(fs.readFileSync(path.join(REPO, rel))).update('\0');
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(REPO, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isDirectory()) walk(`${rel}/${e.name}`);
      else if (e.isFile()) add(`${rel}/${e.name}`);
    }
  };
  for (const dir of SOURCES) walk(dir);
  for (const file of FILES) if (fs.existsSync(path.join(REPO, file))) add(file);
  return hash.digest('hex').slice(0, 16);
}

/** Packs into `work` and installs into `work`/blog (`work` empty, outside the repository); returns the tarball's files. */
function packAndInstall(work: string, peers: string[], run: Run): string[] {
  const packed = run('npm', ['pack', '--json', '--pack-destination', work], REPO);
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.out}`);
  // npm prints the prepack script's output before the JSON report when the script writes to stdout.
  const report = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  const project = path.join(work, 'blog');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'blog', private: true }) + '\n');
  const installed = run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(work, report[0]!.filename), ...peers], project);
  if (installed.code !== 0) throw new Error(`npm install failed:\n${installed.out}`);
  return report[0]!.files.map((f) => f.path);
}

/**
 * Makes `tmp`/blog a project with the packed package and `peers` installed (npm records the tarball by a
 * path relative to the project: it is copied beside it), from the cache or, when it has no install of these
 * inputs, by packing and installing (then kept). Returns the tarball's file list and whether it was cached.
 */
export function installedPackage(tmp: string, peers: string[], run: Run): { packedFiles: string[]; cached: boolean } {
  const npmVersion = run('npm', ['--version'], REPO).stdout.trim();
  const k = key(peers, npmVersion);
  const kept = path.join(CACHE, k);
  if (fs.existsSync(path.join(kept, 'files.json'))) {
    // The links in node_modules/.bin are relative: copied as they are, they point into the copy.
    fs.cpSync(kept, tmp, { recursive: true, verbatimSymlinks: true, filter: (src) => src !== path.join(kept, 'files.json') });
    return { packedFiles: JSON.parse(fs.readFileSync(path.join(kept, 'files.json'), 'utf8')) as string[], cached: true };
  }
  // Made in `tmp` itself (outside the repository, where nothing resolves from this repository's node_modules,
  // as a stranger's), then kept before any test changes it.
  const files = packAndInstall(tmp, peers, run);
  // Installs of other inputs are never used again.
  for (const old of fs.existsSync(CACHE) ? fs.readdirSync(CACHE) : []) if (!old.includes('.tmp-')) fs.rmSync(path.join(CACHE, old), { recursive: true, force: true });
  fs.mkdirSync(CACHE, { recursive: true });
  const making = `${kept}.tmp-${process.pid}`;
  fs.cpSync(tmp, making, { recursive: true, verbatimSymlinks: true });
  fs.writeFileSync(path.join(making, 'files.json'), JSON.stringify(files));
  try {
    fs.renameSync(making, kept); // whole or not at all
  } catch (error) {
    fs.rmSync(making, { recursive: true, force: true });
    if (!fs.existsSync(path.join(kept, 'files.json'))) throw error; // else another run kept the same install first
  }
  return { packedFiles: files, cached: false };
}
