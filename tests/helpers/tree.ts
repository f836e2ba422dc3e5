// Folder snapshots and throwaway site copies for tests that check "nothing was half-written":
// treeSnapshot(dist) before and after a failed build must be equal.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Every file below `dir` with its bytes, in a stable order: equal strings mean equal trees. */
export function treeSnapshot(dir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const f of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, f.name);
      if (f.isDirectory()) walk(p); else out.push(`${path.relative(dir, p)}:${fs.readFileSync(p).toString('base64')}`);
    }
  };
  walk(dir);
  return out.join('\n');
}

export interface SiteCopies {
  work: string;
  pristine: string;
  /** A new copy of the pristine site, for a case that changes its code or its folders. */
  freshSite: (name: string) => string;
  /**
   * Runs `fn` on the one shared copy of the pristine site with `files` written over it, then puts back what
   * the case changed: those files, and dist/ and .sitegen/ as the pristine has them. So every case starts
   * from the pristine site, as with freshSite, but the cases share the folder: the engine keeps a site's
   * compiled sitegen.config.ts by its folder, so a case that changes only content costs a build, not a
   * compile too. Cases take turns (vitest runs the tests of a file one after another).
   *
   * With `warm` (siteCopies' option), the shared copy is built once before the first case and dist/ and
   * .sitegen/ are put back as that build left them: its caches are keyed by the copy's own folder, so a
   * case's build reuses the client bundle instead of making it again (pristine's bundle is keyed by the
   * pristine's folder).
   */
  withContent: <T>(files: Record<string, string | Buffer>, fn: (site: string) => Promise<T>) => Promise<T>;
}

/**
 * A temp folder holding one pristine site (filled by the caller) and cheap copies of it, one per case;
 * `under` is the folder it is made in (tests/helpers/scratch.ts has a faster one); `warm` builds the
 * shared copy of withContent once, before its first case.
 */
export function siteCopies(prefix: string, under: string = os.tmpdir(), opts: { warm?: (site: string) => Promise<unknown> } = {}): SiteCopies {
  const work = fs.mkdtempSync(path.join(under, prefix));
  const pristine = path.join(work, 'pristine');
  /** Where withContent puts dist/ and .sitegen/ back from: the shared copy's own, once warmed, else the pristine's. */
  let baseline = pristine;
  let shared: string | null = null;
  let busy = false;
  const freshSite = (name: string) => {
    const dir = path.join(work, name);
    fs.cpSync(pristine, dir, { recursive: true });
    return dir;
  };
  return {
    work, pristine, freshSite,
    async withContent(files, fn) {
      if (busy) throw new Error('withContent: cases on the shared site must take turns');
      busy = true;
      if (shared === null) {
        const first = freshSite('shared');
        try {
          if (opts.warm) {
            await opts.warm(first);
            baseline = path.join(work, 'shared-baseline');
            for (const dir of ['dist', '.sitegen']) {
              if (fs.existsSync(path.join(first, dir))) fs.cpSync(path.join(first, dir), path.join(baseline, dir), { recursive: true });
            }
          }
        } catch (e) {
          busy = false;
          throw e;
        }
        shared = first;
      }
      const site = shared;
      const originals = Object.keys(files).map((rel) => {
        const file = path.join(site, rel);
        return [file, fs.existsSync(file) ? fs.readFileSync(file) : null] as const;
      });
      try {
        for (const [rel, contents] of Object.entries(files)) fs.writeFileSync(path.join(site, rel), contents);
        return await fn(site);
      } finally {
        for (const [file, before] of originals) {
          if (before === null) fs.rmSync(file, { force: true });
          else fs.writeFileSync(file, before);
        }
        try {
          for (const dir of ['dist', '.sitegen']) {
            fs.rmSync(path.join(site, dir), { recursive: true, force: true });
            if (fs.existsSync(path.join(baseline, dir))) fs.cpSync(path.join(baseline, dir), path.join(site, dir), { recursive: true });
          }
        } finally {
          busy = false; // a failed put-back fails its own case, not every case after it
        }
      }
    },
  };
}
