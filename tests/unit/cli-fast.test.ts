// A mistyped command is answered before any site is compiled: the CLI knows its own commands, and which
// commands the site's plugins declare is read from the module cache's record, not from the compiled
// config. Each site here records every import of its config in a log, so "not compiled, not even loaded"
// is something the test can see, not a timing.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { sitegen, writeWaitlistSite } from '../helpers/cli.ts';
import { copyFixture, removeCopy } from './dev-fixture.ts';
import { scratchDir } from '../helpers/scratch.ts';

let dirs: string[] = [];
afterEach(() => { for (const d of dirs) removeCopy(d); dirs = []; });

/** Makes the site's config append a line to <dir>/imports.log each time it is imported; returns a reader. */
function logImports(dir: string): () => number {
  const log = path.join(dir, 'imports.log');
  const config = path.join(dir, 'sitegen.config.ts');
  fs.writeFileSync(config, `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(log)}, 'imported\\n');\n${fs.readFileSync(config, 'utf8')}`);
  return () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0);
}

describe('commands that are not the site’s are answered without compiling it', () => {
  it('a typo of a built-in command gets a did-you-mean, on a site never built', () => {
    const dir = copyFixture('basic');
    dirs.push(dir);
    const imports = logImports(dir);
    const r = sitegen(['biuld', '--root', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("error: unknown command 'biuld'");
    expect(r.stderr).toContain('(Did you mean build?)');
    expect(imports()).toBe(0);
  });

  it('--help lists the commands without loading the site', () => {
    const dir = copyFixture('basic');
    dirs.push(dir);
    const imports = logImports(dir);
    const r = sitegen(['--help'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/build \[options\]\s+Validate content/);
    // A site never compiled: where its plugins' commands will be listed, still without loading it.
    expect(r.stdout).toContain("A site's plugin commands are listed here once the site has been built or checked.");
    expect(imports()).toBe(0);
  });

  it('a plugin command named like a typo of a built-in one is ignored with a warning, as a typo is answered without the site', () => {
    const dir = copyFixture('basic');
    dirs.push(dir);
    const config = path.join(dir, 'sitegen.config.ts');
    fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace("  css: ['templates/site.css'],",
      "  plugins: [{ name: 'near', commands: [{ name: ['chek', 'all'], description: 'x', run: async () => 0 }, { name: ['tidy'], description: 'y', run: async () => 0 }] }],\n  css: ['templates/site.css'],"));
    const r = sitegen(['tidy', '--help', '--root', dir]);
    expect(r.stderr).toContain('! the near plugin\'s command "chek all" is ignored: "chek" is too close to the built-in command "check"; rename it');
    expect(r.stdout).toMatch(/Usage: sitegen tidy/);
  });

  it("a plugin's command that throws is the plugin's error, located in the config, exit 1: not a crash of sitegen", () => {
    const dir = copyFixture('basic');
    dirs.push(dir);
    const config = path.join(dir, 'sitegen.config.ts');
    fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace("  css: ['templates/site.css'],",
      "  plugins: [{ name: 'boom', commands: [{ name: ['boomcmd'], description: 'throws', run: async () => { throw new Error('command failed'); } }] }],\n  css: ['templates/site.css'],"));
    const r = sitegen(['boomcmd', '--root', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the boom plugin\'s command "boomcmd" failed: command failed');
    expect(r.stderr).toMatch(/sitegen\.config\.ts:\d+:\d+ the boom plugin/);
    expect(r.stderr).not.toContain('crashed');
  });

  it("a plugin's command still runs; once the site is compiled, a typo of it or any other unknown word is answered from the cache", () => {
    const dir = scratchDir('sitegen-cli-fast-');
    writeWaitlistSite(dir);
    const imports = logImports(dir);
    const help = sitegen(['waitlist', 'export', '--help', '--root', dir]);
    expect(help.stderr).toBe('');
    expect(help.stdout).toContain('--format');
    expect(imports()).toBe(1);

    const typo = sitegen(['waitlst', 'export', '--root', dir]);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain("error: unknown command 'waitlst'");
    expect(typo.stderr).toContain('(Did you mean waitlist?)');
    const other = sitegen(['frobnicate', '--root', dir]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("error: unknown command 'frobnicate'");
    // --help lists the plugin's command from the cache's record, loading nothing.
    for (const args of [['--help', '--root', dir], ['help', '--root', dir]]) {
      const h = sitegen(args);
      expect(h.code).toBe(0);
      expect(h.stdout).toMatch(/waitlist\s+The site's plugins: sitegen waitlist export \(each with\s+--help\)/);
      expect(h.stdout).not.toContain('listed here once');
    }
    expect(imports()).toBe(1);
  });
});
