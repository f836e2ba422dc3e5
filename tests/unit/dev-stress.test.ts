// `sitegen dev` under 200 operations on a fixture copy: edits (a third of them broken), files deleted and
// re-created, a content folder renamed away and back. Each operation waits (bounded) for the server's
// `rebuilt` event. The server must never fail, and once every file is restored it must serve the right site.
// In process (tests/helpers/site.ts runs the CLI's own dev command): an error the server does not handle
// fails the run, where the CLI would report it and keep serving.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { openEvents, until } from './dev-fixture.ts';
import { prng } from '../helpers/prng.ts';
import { type DevRun, type TestSite } from '../helpers/site.ts';
import { copyOf } from '../helpers/scratch.ts';

let site: TestSite;
let dev: DevRun;
let dir: string;

beforeAll(async () => {
  site = await copyOf('basic');
  dir = site.root;
  dev = await site.dev();
  if (dev.code !== 0) throw new Error(dev.output());
});
afterAll(async () => { await dev?.close(); site?.remove(); });

describe('sitegen dev endurance: 200 operations', () => {
  it('never exits and ends serving the correct site', async () => {
    const rnd = prng(Number(process.env.DEV_STRESS_SEED ?? 8));
    const events = await openEvents(dev.url + '/__sitegen/events');
    const good = {
      'content/items/alpha.yaml': (m: string) => `title: Alpha ${m}\ntags: [a, b]\nprice: 3\n`,
      'content/items/beta.yaml': (m: string) => `title: Beta ${m}\ntags: [c, d]\nprice: 5\n`,
      'content/pages/about.md': (m: string) => `---\ntitle: About\n---\n# Hello ${m}\n\nA [link home](/).\n`,
    } as Record<string, (m: string) => string>;
    const broken = [
      (m: string) => `title: [${m}\n`,                         // YAML syntax
      (m: string) => `title: ${m}\ntags: [only-one]\nprice: 1\n`, // schema
      (m: string) => `---\ntitle: About\n---\n[x](/missing-${m}/)\n`, // broken link (in any file: a schema error too)
    ];
    const files = Object.keys(good);
    const last = new Map<string, string>();
    let rebuilt = 0, brokenOps = 0, deletes = 0, renames = 0;
    const waitRebuild = async (what: string) => {
      const before = events.events.length;
      await events.next((e) => e.event === 'rebuilt', 10_000).catch(() => null); // some operations change nothing
      if (events.events.length > before) rebuilt++;
      if (/internal error|crashed/.test(dev.stderr())) throw new Error(`dev failed after ${what}:\n${dev.output().slice(-2000)}`);
    };
    for (let k = 1; k <= 200; k++) {
      const r = rnd();
      const rel = files[Math.floor(rnd() * files.length)];
      const abs = path.join(dir, rel);
      const marker = `s${k}`;
      if (r < 0.33) {
        fs.writeFileSync(abs, broken[Math.floor(rnd() * broken.length)](marker));
        brokenOps++;
      } else if (r < 0.43) {
        fs.rmSync(abs, { force: true });
        deletes++;
      } else if (r < 0.46) {
        fs.renameSync(path.join(dir, 'content/items'), path.join(dir, 'content/things'));
        await waitRebuild(`rename ${k}`);
        fs.renameSync(path.join(dir, 'content/things'), path.join(dir, 'content/items'));
        renames++;
      } else {
        fs.writeFileSync(abs, good[rel](marker));
        last.set(rel, marker);
      }
      await waitRebuild(`operation ${k}`);
    }
    // Restore every file to a good version and check the site serves exactly that.
    for (const rel of files) {
      const marker = `final-${rel.length}`;
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), good[rel](marker));
      last.set(rel, marker);
      await waitRebuild(`restore ${rel}`);
    }
    const pages: Record<string, string> = { 'content/items/alpha.yaml': '/items/alpha/', 'content/items/beta.yaml': '/items/beta/', 'content/pages/about.md': '/about/' };
    for (const rel of files) {
      await until(async () => (await (await fetch(dev.url + pages[rel])).text()).includes(last.get(rel)!), 15_000, `${pages[rel]} shows ${last.get(rel)}`);
    }
    const home = await fetch(dev.url + '/');
    expect(home.status).toBe(200);
    expect((await fetch(dev.url + '/nope')).status).toBe(404);
    console.log(`dev stress: 200 operations (${brokenOps} broken edits, ${deletes} deletions, ${renames} folder renames), ${rebuilt} rebuilds, server still up`);
    events.close();
  }, 600_000);
});
