// The watcher's scheduling: bursts of saves are coalesced into few batches, a batch never starts while
// another runs (changes meanwhile make exactly one more batch), and no save is lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { watchSite, type SiteWatcher } from '../../src/dev/watch.ts';
import type { FileChange } from '../../src/dev/devSite.ts';
import { until } from './dev-fixture.ts';
import { SCRATCH } from '../helpers/scratch.ts';

let dir: string;
let watcher: SiteWatcher;
const batches: FileChange[][] = [];
let running = 0, maxRunning = 0;
let delayMs = 0;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-watch-'));
  for (const d of ['content', 'templates', 'static']) fs.mkdirSync(path.join(dir, d));
  fs.writeFileSync(path.join(dir, 'content/a.yaml'), 'v: 0\n');
  watcher = await watchSite({
    root: dir,
    debounceMs: 10,
    async onBatch(changes) {
      running++;
      maxRunning = Math.max(maxRunning, running);
      batches.push(changes);
      await new Promise((r) => setTimeout(r, delayMs));
      running--;
    },
  });
});
afterAll(async () => {
  await watcher?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const write = (rel: string, text: string) => fs.writeFileSync(path.join(dir, rel), text);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('watchSite', () => {
  it('coalesces a burst of saves into one batch', async () => {
    batches.length = 0;
    for (let i = 1; i <= 5; i++) { write('content/a.yaml', `v: ${i}\n`); await sleep(2); }
    await until(() => batches.length > 0, 10_000, 'a batch');
    await sleep(150);
    await watcher.idle();
    expect(batches.length).toBeLessThanOrEqual(2);
    expect(batches[0]).toEqual([{ file: path.join(dir, 'content/a.yaml'), kind: 'change' }]);
  });

  it('runs one batch at a time and queues one more for changes made meanwhile', async () => {
    batches.length = 0;
    delayMs = 300;
    write('content/a.yaml', 'v: 10\n');
    await until(() => running === 1, 10_000, 'the first batch to start');
    write('templates/x.tsx', 'export const x = 1;\n');
    write('static/s.txt', 's');
    write('content/a.yaml', 'v: 11\n');
    await until(() => batches.length >= 2, 10_000, 'the queued batch');
    await watcher.idle();
    delayMs = 0;
    expect(maxRunning).toBe(1);
    const second = batches.slice(1).flat().map((c) => `${path.relative(dir, c.file)}:${c.kind}`).sort();
    expect(second).toEqual(expect.arrayContaining(['content/a.yaml:change', 'static/s.txt:add', 'templates/x.tsx:add']));
  });

  it('does not lose a save that chokidar throttles (two writes within 50 ms)', async () => {
    await watcher.idle();
    batches.length = 0;
    write('content/a.yaml', 'v: 20\n');
    await until(() => batches.length === 1, 10_000, 'the first batch');
    write('content/a.yaml', 'v: 21 with more text\n');
    await until(() => batches.length === 2, 10_000, 'a batch for the second write');
    expect(batches[1][0].kind).toBe('change');
  });

  it('leaves out a file that came and went within a batch (sed -i\'s temporary file, renamed over the one it edits)', async () => {
    batches.length = 0;
    delayMs = 400; // a batch running while the edit happens: what follows waits and comes as one batch
    write('content/a.yaml', 'v: start\n');
    await until(() => batches.length > 0, 10_000, 'the first batch');
    write('content/sedX1b2c3', 'v: sed\n');
    await sleep(30);
    fs.renameSync(path.join(dir, 'content/sedX1b2c3'), path.join(dir, 'content/a.yaml'));
    await until(() => batches.length > 1, 10_000, 'the next batch');
    delayMs = 0;
    await sleep(150);
    await watcher.idle();
    const later = batches.slice(1).flat();
    expect(later.map((c) => path.basename(c.file))).not.toContain('sedX1b2c3');
    expect(later).toContainEqual(expect.objectContaining({ file: path.join(dir, 'content/a.yaml') }));
  });

  it('ignores hidden files', async () => {
    await watcher.idle();
    batches.length = 0;
    write('content/.a.yaml.swp', 'x');
    write('content/b.yaml', 'v: 1\n');
    await until(() => batches.length > 0, 10_000, 'a batch');
    await watcher.idle();
    expect(batches.flat().map((c) => path.basename(c.file))).toEqual(['b.yaml']);
  });
});

describe('watchSite: a file outside the watched folders, added while it is being edited', () => {
  it('reports a save made right after watchFiles, before the watch of that file has started', async () => {
    const root = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-watch-added-'));
    fs.mkdirSync(path.join(root, 'plugins'));
    const file = path.join(root, 'plugins/hello.ts');
    fs.writeFileSync(file, "export const v = 'v1';\n");
    const seen: FileChange[][] = [];
    const w = await watchSite({ root, debounceMs: 10, async onBatch(changes) { seen.push(changes); } });
    try {
      w.watchFiles([file]);
      // In the same turn: chokidar has not yet looked at the file, so it would take this text as the file's own.
      fs.writeFileSync(file, "export const v = 'v2, saved at once';\n");
      await until(() => seen.some((b) => b.some((c) => c.file === file)), 10_000, 'the save to be reported');
      expect(seen.flat().filter((c) => c.file === file)[0]).toEqual({ file, kind: 'change' });
    } finally {
      await w.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

/** A site folder made by `make` in a new scratch folder, watched while `run` runs (every change its batches
 *  reported in `seen`), then closed and removed. */
async function watching(name: string, make: (root: string) => void, run: (w: SiteWatcher, seen: FileChange[], root: string) => Promise<void>): Promise<void> {
  const root = fs.mkdtempSync(path.join(SCRATCH, `sitegen-watch-${name}-`));
  make(root);
  const seen: FileChange[] = [];
  const w = await watchSite({ root, debounceMs: 10, async onBatch(changes) { seen.push(...changes); } });
  try {
    await run(w, seen, root);
  } finally {
    await w.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

describe('watchSite: a site with no static/ folder', () => {
  it('reports saves made as soon as it is ready, in folders it read last, and a static/ made later; not dist/ or other files at the root', async () => {
    const files: string[] = [];
    await watching('nostatic', (root) => {
      for (let i = 0; i < 20; i++) {
        const folder = path.join(root, 'content', `part${i}`, 'deep');
        fs.mkdirSync(folder, { recursive: true });
        files.push(path.join(folder, 'page.md'));
        fs.writeFileSync(files[i]!, 'v1\n');
      }
      fs.mkdirSync(path.join(root, 'templates'));
      fs.mkdirSync(path.join(root, 'dist'));
    }, async (w, seen, root) => {
      // The first moment: chokidar's 'ready' used to come before the deepest folders were watched (it
      // counted the missing static/ twice), and all of these saves were lost.
      for (const f of files) fs.writeFileSync(f, 'v2\n');
      fs.writeFileSync(path.join(root, 'dist/index.html'), 'built');
      fs.writeFileSync(path.join(root, 'notes.txt'), 'not a site file');
      await until(() => files.every((f) => seen.some((c) => c.file === f)), 10_000, 'every save to be reported');
      fs.mkdirSync(path.join(root, 'static'));
      fs.writeFileSync(path.join(root, 'static/robots.txt'), 'User-agent: *\n');
      await until(() => seen.some((c) => c.file === path.join(root, 'static/robots.txt')), 10_000, 'the new static file');
      await w.idle();
      expect(seen.filter((c) => files.includes(c.file)).every((c) => c.kind === 'change')).toBe(true);
      expect(seen.map((c) => path.relative(root, c.file)).filter((f) => f.startsWith('dist') || f === 'notes.txt')).toEqual([]);
    });
  });
});

/** A site with content/ and plugins/p.ts (a file its config imports), and with a sitegen.config.ts when asked. */
const pluginSite = (withConfig: boolean) => (root: string) => {
  fs.mkdirSync(path.join(root, 'content'));
  fs.mkdirSync(path.join(root, 'plugins'));
  if (withConfig) fs.writeFileSync(path.join(root, 'sitegen.config.ts'), 'export default 1;\n');
  fs.writeFileSync(path.join(root, 'plugins/p.ts'), 'export const p = 1;\n');
};

describe('watchSite: files at the root and outside the site folders', () => {
  it('reports the config and an imported file replaced by rename (as editors save), and no other file beside them', async () => {
    await watching('rename', pluginSite(true), async (w, seen, root) => {
      const config = path.join(root, 'sitegen.config.ts'), plugin = path.join(root, 'plugins/p.ts');
      w.watchFiles([plugin]);
      const replace = (file: string, text: string) => { fs.writeFileSync(`${file}.tmp`, text); fs.renameSync(`${file}.tmp`, file); };
      replace(config, 'export default 2;\n');
      await until(() => seen.some((c) => c.file === config), 10_000, 'the config');
      replace(plugin, 'export const p = 2;\n');
      fs.writeFileSync(path.join(root, 'plugins/other.ts'), 'not imported');
      fs.writeFileSync(path.join(root, 'README.md'), 'notes');
      await until(() => seen.some((c) => c.file === plugin), 10_000, 'the imported file');
      await w.idle();
      expect([...new Set(seen.map((c) => `${path.relative(root, c.file)} ${c.kind}`))].sort()).toEqual(['plugins/p.ts change', 'sitegen.config.ts change']);
    });
  });
});

describe('watchSite: an imported file outside the site folders, deleted and made again', () => {
  it('reports it coming back and a later save, not a file beside it, and finds it under a path written another way', async () => {
    await watching('back', pluginSite(false), async (w, seen, root) => {
      const plugin = path.join(root, 'plugins/p.ts');
      w.watchFiles([`${root}//plugins/./p.ts`]);
      // Past the looks a newly watched file gets: what follows is chokidar's to see.
      await sleep(2_300);
      fs.rmSync(plugin);
      await until(() => seen.some((c) => c.file === plugin && c.kind === 'unlink'), 10_000, 'the deletion');
      fs.writeFileSync(plugin, 'export const p = 2;\n');
      await until(() => seen.some((c) => c.file === plugin && c.kind === 'add'), 10_000, 'the file coming back');
      await sleep(100);
      fs.writeFileSync(plugin, 'export const p = 3, q = 4;\n');
      fs.writeFileSync(path.join(root, 'plugins/other.ts'), 'not imported');
      await until(() => seen.filter((c) => c.file === plugin && c.kind === 'change').length > 0, 10_000, 'the save after');
      await w.idle();
      expect(seen.filter((c) => c.file !== plugin)).toEqual([]);
    });
  });
});

describe('watchSite: sed -i edits one after another', () => {
  it('never names the temporary file, though its batch may run before its unlink arrives', async () => {
    const root = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-watch-sed-'));
    for (const d of ['content', 'templates', 'static']) fs.mkdirSync(path.join(root, d));
    fs.writeFileSync(path.join(root, 'content/a.yaml'), 'v: 0\n');
    const named: string[] = [];
    const w = await watchSite({ root, debounceMs: 50, async onBatch(changes) { for (const c of changes) named.push(path.basename(c.file)); } });
    try {
      // As sed -i does: the new text in a file of its own, renamed over the one it edits (a few ms apart here; the
      // batch waits 50 ms after the last event, so only a machine stalled that long could see the file still there,
      // while chokidar's unlink of it often comes later than that: the code before this test named it every run).
      for (let i = 0; i < 20; i++) {
        const tmp = path.join(root, `content/sed${i}Xq`);
        fs.writeFileSync(tmp, `v: ${i}\n`);
        await sleep(i % 4);
        fs.renameSync(tmp, path.join(root, 'content/a.yaml'));
        await sleep(80);
      }
      await w.idle();
      expect(named.filter((n) => n.startsWith('sed'))).toEqual([]);
      expect(named).toContain('a.yaml');
    } finally {
      await w.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
