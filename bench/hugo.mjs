// bench/hugo.mjs: the Hugo side of the comparison. Finds `hugo` on PATH, copies bench/hugo-site/ (config +
// one layout) beside a generated site, and builds the same gen.mjs content with it. Hugo is optional: the
// bench runs without it and then prints no ratios.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setAside } from './proc.mjs';

/** `hugo version`'s first line when `hugo` is on PATH, else null. */
export function hugoVersion() {
  const r = spawnSync('hugo', ['version'], { encoding: 'utf8', timeout: 20_000 });
  if (r.status !== 0 || !r.stdout) return null;
  return r.stdout.trim().split('\n')[0];
}

/**
 * Copies bench/hugo-site/ into <siteDir>/hugo/ (fresh each time, so edits count) with bench/site's
 * stylesheet as its one asset. Hugo writes its lock file and resources/ into that copy, never into the repo.
 */
export function prepareHugo(benchDir, siteDir) {
  const dir = path.join(siteDir, 'hugo');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(path.join(benchDir, 'hugo-site'), dir, { recursive: true });
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  fs.copyFileSync(path.join(benchDir, 'site', 'templates', 'site.css'), path.join(dir, 'assets', 'site.css'));
  return {
    dir,
    out: path.join(siteDir, 'hugo-public'),
    // Hugo's file cache (modules, remote resources, processed images): empty for this site, but set so that
    // a cold build deletes it rather than leaving it in $TMPDIR.
    cache: path.join(siteDir, 'hugo-cache'),
    content: path.join(siteDir, 'content', 'pages'),
  };
}

/** The arguments of a Hugo build of `h` (from prepareHugo). Not --quiet: its summary has the page count. */
export const hugoBuildArgs = (h) => ['--source', h.dir, '--contentDir', h.content, '--destination', h.out, '--cacheDir', h.cache];

/** `hugo server` on the same site, rendering to memory (0.111's default) on `port`. */
export const hugoServerArgs = (h, port) => ['server', '--source', h.dir, '--contentDir', h.content, '--cacheDir', h.cache, '--port', String(port), '--bind', '127.0.0.1'];

/** Cold for Hugo: no output, no resources/ (generated assets), no file cache. */
export function coldHugo(h) {
  for (const d of [h.out, h.cache, path.join(h.dir, 'resources')]) setAside(d);
}

/** The "Pages" figure of Hugo's build summary (pages of every kind it rendered, robots.txt included). */
export function hugoPagesFigure(stdout) {
  const m = stdout.match(/^\s*Pages\s*[|│]\s*(\d+)/m);
  return m ? Number(m[1]) : null;
}

/** HTML pages written: files named index.html under `dir` (what bench/site writes one of per content file). */
export function countIndexFiles(dir) {
  let n = 0;
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name));
      else if (e.name === 'index.html') n++;
    }
  };
  walk(dir);
  return n;
}
