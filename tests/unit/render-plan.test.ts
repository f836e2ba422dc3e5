// The one render stage (src/pipeline/render.ts renderPlan): a session's plan rendered to a folder (build),
// to memory (dev), on worker threads, or for its links only (check) gives the same pages, byte for byte,
// and the same links; dev renders only the routes it asks for through the same function.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { openSession, type ReadyPlan, type Session } from '../../src/pipeline/session.ts';
import { linksTarget, memoryTarget, planInput, renderPlan, type PageResult } from '../../src/pipeline/render.ts';
import { configureEngine } from '../../src/core/settings.ts';
import { readTree, type TestSite } from '../helpers/site.ts';
import { warmCopies } from '../helpers/warmCopies.ts';
import { SCRATCH } from '../helpers/scratch.ts';

let site: TestSite;
const folders: string[] = [];
const folder = () => { const d = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-render-')); folders.push(d); return d; };

// The fixture as committed, at the process's one path for it (tests/helpers/warmCopies.ts).
const copies = warmCopies('basic');
beforeAll(async () => { site = await copies.next(); });
afterAll(() => {
  copies.remove();
  for (const d of folders) fs.rmSync(d, { recursive: true, force: true });
});
afterEach(() => { configureEngine(); });

/** Loads and plans the site in build mode; the caller closes the session. */
async function planned(): Promise<{ session: Session; plan: ReadyPlan }> {
  const session = await openSession({ root: site.root, mode: 'build' });
  await session.load();
  const plan = await session.plan();
  expect(plan.errors).toEqual([]);
  if (!plan.ok) throw new Error('the site did not plan');
  return { session, plan };
}

async function render(target: Parameters<typeof renderPlan>[1], opts?: Parameters<typeof renderPlan>[2]): Promise<{ pages: PageResult[]; plan: ReadyPlan }> {
  const { session, plan } = await planned();
  try {
    return { pages: await renderPlan(planInput(session, plan), target, opts), plan };
  } finally {
    await session.close();
  }
}

describe('renderPlan(plan, target)', () => {
  it('a folder and memory get the same files, byte for byte, pages and alias pages alike', async () => {
    const dir = folder();
    const onDisk = await render({ kind: 'folder', dir });
    const memory = memoryTarget();
    const inMemory = await render(memory);
    const files = readTree(dir);
    expect(Object.keys(files).sort()).toEqual([...memory.files.keys()].sort());
    for (const [rel, html] of memory.files) expect(files[rel], rel).toBe(html);
    // Every route and every alias page of the plan, nothing else.
    const { routes, aliases } = onDisk.plan.routing!.table;
    expect(aliases.length).toBeGreaterThan(0);
    expect(Object.keys(files).sort()).toEqual([...routes.map((r) => r.output), ...aliases.map((a) => a.output)].sort());
    expect(files['old/alpha/index.html']).toContain('/items/alpha/');
    expect(onDisk.pages).toEqual(inMemory.pages);
  });

  it('on worker threads: the same bytes and the same links as on this thread', async () => {
    const here = memoryTarget();
    const local = await render(here);
    // Every content file parsed and every page rendered on two workers, none on this thread.
    configureEngine({ workers: 2, parallelMin: 0, renderOnWorkers: true, mainTakesTasks: false, cache: false });
    const dir = folder();
    const { session, plan } = await planned();
    let pages: PageResult[];
    try {
      expect(session.pool?.size).toBe(2);
      pages = await renderPlan(planInput(session, plan), { kind: 'folder', dir });
      expect(session.pool!.stats.tasks.pages).toMatchObject({ onMain: 0 });
      expect(session.pool!.stats.tasks.pages.total).toBeGreaterThan(0);
    } finally {
      await session.close();
    }
    const files = readTree(dir);
    expect(Object.keys(files).sort()).toEqual([...here.files.keys()].sort());
    for (const [rel, html] of here.files) expect(files[rel], rel).toBe(html);
    expect(pages).toEqual(local.pages);
  });

  it('the links target keeps each page\'s links, writes nothing and renders no alias page', async () => {
    const memory = memoryTarget();
    const full = await render(memory);
    const links = await render(linksTarget());
    expect(links.pages).toEqual(full.pages);
    expect(links.pages.find((p) => p.path === '/about/')!.links).toContain('/items/alpha/');
  });

  it('renders only the routes and alias pages asked for (dev), in the order asked', async () => {
    const { plan } = await render(linksTarget());
    const { routes, aliases } = plan.routing!.table;
    const alpha = routes.findIndex((r) => r.path === '/items/alpha/');
    const home = routes.findIndex((r) => r.path === '/');
    const memory = memoryTarget();
    const seen: string[] = [];
    const { pages } = await render(memory, { routes: [alpha, home], aliases: [1], observe: { before: (r) => seen.push(`before ${r.path}`), after: (r, p) => seen.push(`after ${p.path}`) } });
    expect(pages.map((p) => p.path)).toEqual(['/items/alpha/', '/']);
    expect(seen).toEqual(['before /items/alpha/', 'after /items/alpha/', 'before /', 'after /']);
    expect([...memory.files.keys()].sort()).toEqual(['index.html', 'items/alpha/index.html', aliases[1].output].sort());
  });

  it('`aliasPages: false`: no alias page on any target', async () => {
    site.edit('sitegen.config.ts', (t) => t.replace("css: ['templates/site.css'],", "css: ['templates/site.css'],\n  aliasPages: false,"));
    try {
      const memory = memoryTarget();
      const { plan } = await render(memory);
      const { routes } = plan.routing!.table;
      expect([...memory.files.keys()].sort()).toEqual(routes.map((r) => r.output).sort());
    } finally {
      site.edit('sitegen.config.ts', (t) => t.replace("\n  aliasPages: false,", ''));
    }
  });
});
