// The package as a stranger gets it (issue 14): `npm pack` this repository, install the tarball into a fresh
// project outside it, `sitegen init`, then build, type-check, dev (with an edit) and preview the starter site.
// Slow by nature (npm pack and install: ~30-60 s with a warm npm cache), so one shared project serves every test,
// and the installed project is kept between runs until something that goes into it changes (packedInstall.ts).
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';
import { installedPackage } from '../helpers/packedInstall.ts';
import { SCRATCH } from '../helpers/scratch.ts';
import { CLI_GROWING } from '../../src/core/heap.ts';

const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
// In memory when the machine has it (tests/helpers/scratch.ts): the install copied here is 100 MB.
const tmp = fs.mkdtempSync(path.join(SCRATCH, 'sitegen-package-'));
const project = path.join(tmp, 'blog');
let packedFiles: string[] = [];
const timings: Record<string, number> = {};

// What the user's shell would have: no NODE_ENV from vitest, no colour codes in the output we read.
const env = { ...process.env, NO_COLOR: '1' } as NodeJS.ProcessEnv;
delete env.NODE_ENV;

function run(cmd: string, args: string[], cwd: string) {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const name = `${path.basename(cmd)} ${args.map((a) => path.basename(a)).join(' ')}`;
  timings[name] = (timings[name] ?? 0) + Math.round(performance.now() - t0);
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', out: `${r.stdout}\n${r.stderr}` };
}
const sitegen = (args: string[]) => run(process.execPath, [path.join(project, 'node_modules/.bin/sitegen'), ...args], project);

function serve(args: string[]): Promise<{ url: string; proc: ChildProcess; output: () => string }> {
  const proc = spawn(process.execPath, [path.join(project, 'node_modules/.bin/sitegen'), ...args], { cwd: project, env });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { proc.kill(); reject(new Error(`server did not start:\n${out}`)); }, 60_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = out.match(/at (http:\/\/[^\s]+?)\/?\s/);
      if (m) { clearTimeout(timer); resolve({ url: m[1]!, proc, output: () => out }); }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code}:\n${out}`)); });
  });
}
const stop = (proc: ChildProcess) => new Promise<void>((res) => { if (proc.exitCode !== null) return res(); proc.once('exit', () => res()); proc.kill('SIGTERM'); });

/**
 * `tsc --noEmit --watch` in the project (its TypeScript, its tsconfig.json): check() resolves with the next
 * check's error count and what it printed (the first call: the first check, of the whole program; later
 * calls: the check after an edit made before the call).
 */
function watchTsc(): { check: () => Promise<{ errors: number; output: string }>; stop: () => Promise<void> } {
  const t0 = performance.now();
  const proc = spawn(process.execPath, [path.join(project, 'node_modules/typescript/bin/tsc'), '--noEmit', '--watch', '--preserveWatchOutput', '--pretty', 'false'], { cwd: project, env });
  let out = '';
  let from = 0;
  let settle: (() => void) | null = null;
  proc.stdout!.on('data', (d: Buffer) => { out += d.toString(); settle?.(); });
  proc.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
  return {
    check: () => new Promise((resolve, reject) => {
      const timer = setTimeout(() => { settle = null; reject(new Error(`tsc --watch reported no check in 60 s:\n${out}`)); }, 60_000);
      proc.once('exit', (code) => { if (settle) { clearTimeout(timer); reject(new Error(`tsc --watch exited with ${code}:\n${out}`)); } });
      settle = () => {
        const done = /Found (\d+) errors?\. Watching for file changes\./.exec(out.slice(from));
        if (!done) return;
        const output = out.slice(from, from + done.index + done[0].length);
        from += done.index + done[0].length;
        settle = null;
        clearTimeout(timer);
        resolve({ errors: Number(done[1]), output });
      };
      settle();
    }),
    stop: async () => {
      await stop(proc);
      timings['tsc --watch'] = Math.round(performance.now() - t0);
    },
  };
}

beforeAll(() => {
  const t0 = performance.now();
  const dev = pkg.devDependencies as Record<string, string>;
  const peers = ['react', 'react-dom', 'zod', 'typescript', '@types/react'].map((n) => `${n}@${dev[n]}`);
  // Packed and installed once per content of what goes in (tests/helpers/packedInstall.ts), copied here.
  const installed = installedPackage(tmp, peers, run);
  packedFiles = installed.packedFiles;
  timings[installed.cached ? 'copy of the kept install' : 'pack + install'] = Math.round(performance.now() - t0);
}, 600_000);

afterAll(() => {
  console.log(`package test timings (ms): ${JSON.stringify(timings)}`);
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the installed package', () => {
  it('ships the engine only: no site, tests or migrations in the tarball', () => {
    const top = new Set(packedFiles.map((f) => f.split('/')[0]));
    for (const dir of ['content', 'templates', 'tests', 'plugins', 'supabase', 'bench', 'scripts', 'cli']) expect(top.has(dir), dir).toBe(false);
    expect(packedFiles).toContain('bin/sitegen.js');
    expect(packedFiles).toContain('lib/main.js');
    expect(packedFiles).toContain('lib/types/public.d.ts');
    expect(packedFiles).toContain('src/render/document.tsx');
    expect(packedFiles).toContain('init-template/minimal/sitegen.config.ts');
  });

  it('prints its own version and never bundles itself at first run', () => {
    const r = sitegen(['--version']);
    expect(r.code, r.out).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
    expect(fs.existsSync(path.join(project, 'node_modules', pkg.name, 'node_modules/.cache/sitegen/cli'))).toBe(false);
  });

  it('compiles its vendor bundles at install (its postinstall runs `sitegen prepare`), so the first build and the first dev start do not', () => {
    const vendor = path.join(project, 'node_modules', pkg.name, 'node_modules/.cache/sitegen/vendor');
    // One for builds (production) and one for `sitegen dev` (React's development build).
    expect(fs.existsSync(vendor) ? fs.readdirSync(vendor).filter((f) => /^vendor-[0-9a-f]+\.cjs$/.test(f)) : []).toHaveLength(2);
    // and the code cache of its packages' common functions, which the first build starts from
    const [cache] = fs.readdirSync(vendor).filter((f) => /^vendor-[0-9a-f]+\.cjs\.v8cache-install$/.test(f));
    expect(cache).toBeTruthy();
    // V8 refuses a code cache made under other flags than the loading process's: a build's (bin/sitegen.js).
    const list = /const BUILD_FLAGS = \[([^\]\n]*)\];/.exec(fs.readFileSync(path.join(REPO, 'bin/sitegen.js'), 'utf8'))?.[1] ?? '';
    const flags = [...list.matchAll(/'([^'\n]+)'/g)].map((m) => m[1]);
    // (a build sets its heap's growth once the code caches are read, and goes back to V8's, CLI_GROWING, before
    // it makes one: src/core/heap.ts)
    expect(CLI_GROWING).toBe(0);
    expect(flags.filter((f) => f.startsWith('--heap-growing-percent'))).toEqual([]);
    const file = path.join(vendor, cache.replace(/\.v8cache-install$/, ''));
    const probe = 'const fs=require("fs"),vm=require("vm"),M=require("module");const f=process.argv[1];' +
      'const s=new vm.Script(M.wrap(fs.readFileSync(f,"utf8")),{filename:f,cachedData:fs.readFileSync(f+".v8cache-install")});process.stdout.write(String(s.cachedDataRejected))';
    expect(execFileSync(process.execPath, [...flags, '-e', probe, file], { encoding: 'utf8' })).toBe('false');
  });

  it('init scaffolds a site, and refuses a folder that is not empty without --force', () => {
    const r = sitegen(['init']);
    expect(r.code, r.out).toBe(0);
    for (const f of ['sitegen.config.ts', 'tsconfig.json', '.gitignore', 'content/posts/hello-world.md', 'templates/islands/Counter.tsx', 'static/favicon.svg']) {
      expect(fs.existsSync(path.join(project, f)), f).toBe(true);
    }
    const scripts = JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8'));
    expect(Object.keys(scripts.scripts)).toEqual(expect.arrayContaining(['dev', 'build', 'check', 'preview', 'typecheck']));
    expect(scripts.dependencies[pkg.name]).toMatch(/^file:/); // the installed tarball is kept, not replaced
    const again = sitegen(['init']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/is not empty/);
    expect(again.stderr).toMatch(/--force/);
  });

  it('builds the starter site: the index, a post page and the island', () => {
    const r = sitegen(['build']);
    expect(r.code, r.out).toBe(0);
    const index = fs.readFileSync(path.join(project, 'dist/index.html'), 'utf8');
    expect(index).toContain('href="/posts/hello-world/"');
    expect(index).toContain('data-island="Counter"');
    expect(fs.readFileSync(path.join(project, 'dist/posts/hello-world/index.html'), 'utf8')).toContain('<strong>Markdown</strong>');
  });

  it("rebuilds its cached React when the project's React (a hoisted peer) changes version", () => {
    const vendorDir = path.join(project, 'node_modules', pkg.name, 'node_modules/.cache/sitegen/vendor');
    const before = fs.readdirSync(vendorDir);
    const reactPkg = path.join(project, 'node_modules/react/package.json');
    const text = fs.readFileSync(reactPkg, 'utf8');
    try {
      fs.writeFileSync(reactPkg, text.replace(/"version":\s*"[^"]+"/, '"version": "19.99.0"'));
      const r = sitegen(['build']);
      expect(r.code, r.out).toBe(0);
      expect(fs.readdirSync(vendorDir).filter((n) => n.endsWith('.cjs') && !before.includes(n))).toHaveLength(1);
    } finally {
      fs.writeFileSync(reactPkg, text);
    }
  });

  it('type-checks with tsc --noEmit, with content typed from the schema through the shipped .d.ts', async () => {
    // One tsc, kept watching: its first check is the whole program's, as `npm run typecheck` makes it; after the
    // edit it checks again what the edit touches, without parsing TypeScript's, React's and the package's
    // declarations a second time (a second tsc process: ~3 s of CPU; this: under one).
    const tsc = watchTsc();
    try {
      const clean = await tsc.check();
      expect(clean.errors, clean.output).toBe(0);
      // The trap: a post route without its body's prop (`entry`) passed tsc and built an empty post.
      const config = path.join(project, 'sitegen.config.ts');
      const text = fs.readFileSync(config, 'utf8');
      try {
        fs.writeFileSync(config, text.replace(', entry: p }', ' }').replace('p.data.title, date', 'p.data.titel, date'));
        const bad = await tsc.check();
        expect(bad.errors).toBeGreaterThan(0);
        expect(bad.output).toMatch(/sitegen\.config\.ts\(\d+,\d+\): error TS\d+/);
        expect(bad.output).toContain("'entry'");
        expect(bad.output).toMatch(/Property 'titel' does not exist/);
      } finally {
        fs.writeFileSync(config, text);
      }
    } finally {
      await tsc.stop();
    }
  });

  it('dev serves a page and shows an edit to a post', async () => {
    const { url, proc, output } = await serve(['dev', '--port', '0']);
    try {
      const page = `${url}/posts/hello-world/`;
      const first = await fetch(page);
      expect(first.status, output()).toBe(200);
      expect(await first.text()).not.toContain('Edited while dev runs');
      const file = path.join(project, 'content/posts/hello-world.md');
      fs.appendFileSync(file, '\nEdited while dev runs.\n');
      const deadline = Date.now() + 20_000;
      let html = '';
      while (Date.now() < deadline && !html.includes('Edited while dev runs')) {
        await new Promise((r) => setTimeout(r, 200));
        html = await (await fetch(page)).text();
      }
      expect(html, output()).toContain('Edited while dev runs');
    } finally {
      await stop(proc);
    }
  });

  it('gives scripts preview() from sitegen-islands/server, serving the build in their own process', () => {
    // (after the build test above: preview serves the dist/ it wrote)
    const script = [
      "import { preview } from 'sitegen-islands/server';",
      "const server = await preview({ root: '.', port: 0, backend: false });",
      "const ok = await fetch(new URL('/', server.url)); const missing = await fetch(new URL('/no-such-page/', server.url));",
      'console.log(JSON.stringify({ ok: ok.status, missing: missing.status }));',
      'await server.close();',
    ].join('\n');
    fs.writeFileSync(path.join(project, 'serve.mjs'), script);
    const r = run(process.execPath, ['serve.mjs'], project);
    expect(r.code, r.out).toBe(0);
    expect(JSON.parse(r.stdout.trim().split('\n').pop()!)).toEqual({ ok: 200, missing: 404 });
  });

  it('preview serves the build: 200 for /, 404 for an unknown path', async () => {
    const { url, proc, output } = await serve(['preview', '--port', '0']);
    try {
      expect((await fetch(`${url}/`)).status, output()).toBe(200);
      expect((await fetch(`${url}/no-such-page/`)).status).toBe(404);
    } finally {
      await stop(proc);
    }
  });

  it('clean --shared deletes the install\'s stores of client bundles and image variants; the next build makes them again', () => {
    const shared = path.join('node_modules', pkg.name, 'node_modules/.cache/sitegen');
    const stores = ['client', 'images'].map((d) => path.join(project, shared, d));
    fs.mkdirSync(stores[1]!, { recursive: true }); // the starter shows no image: a store folder as another site leaves it
    expect(stores.filter((s) => fs.existsSync(s))).toEqual(stores);
    const page = fs.readFileSync(path.join(project, 'dist/index.html'), 'utf8');
    const r = sitegen(['clean', '--shared']);
    expect(r.code, r.out).toBe(0);
    expect(r.stdout).toMatch(/^removed from \.sitegen\/cache: .*\n/);
    expect(r.stdout.split('\n').at(-2)).toBe(`removed the shared stores: ${shared}/client, ${shared}/images`);
    expect(stores.filter((s) => fs.existsSync(s))).toEqual([]);
    expect(fs.existsSync(path.join(project, shared, 'vendor'))).toBe(true); // sitegen's own code stays
    const b = sitegen(['build', '--quiet']);
    expect(b.code, b.out).toBe(0);
    expect(fs.existsSync(stores[0]!)).toBe(true);
    expect(fs.readFileSync(path.join(project, 'dist/index.html'), 'utf8')).toBe(page);
  });
});
