// The `sitegen` command line as commander parses it: every command, its options and help, and the site's
// plugin commands. cli/main.ts loads this for anything but a plain `build` (cli/buildArgs.ts).
import path from 'node:path';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { SiteConfig } from '../src/core/types.ts';
import { dim, printMessages, red, yellow } from './report.ts';
import { runCheck, type BuildFlags, type CheckFlags } from './commands.ts';
import { buildCommand } from './buildArgs.ts';
import { loadEnvFile } from './env.ts';
import { typoDistance } from '../src/core/didYouMean.ts';
import { PACKAGE_DIR } from '../src/site/paths.ts';
import { stopWithNpm } from './npmParent.ts';
import { thrownBySite, visibleControls } from '../src/core/errors.ts';

// Required, not imported: commander is CommonJS, and Node's ESM loader would first parse its source to find
// its exports (~4 ms of every start, --version's included).
const { Command, InvalidArgumentError } = createRequire(import.meta.url)('commander') as typeof import('commander');
type Command = import('commander').Command;

const program = new Command();

function port(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port number (0-65535)');
  return n;
}

function resolveRoot(opts: { root?: string }): string {
  return path.resolve(opts.root ?? process.cwd());
}

program
  .name('sitegen')
  .description('Build a static site from zod-validated YAML/Markdown content and React templates.')
  .version(JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')).version)
  .showHelpAfterError();

program.command('build')
  .description('Validate content, render every route and write the site to dist/ (swapped in only on success)')
  .option('-r, --root <dir>', 'site folder (with sitegen.config.ts, content/, templates/, static/)', '.')
  .option('-o, --out <dir>', 'output folder, relative to the root', 'dist')
  .option('--site-url <url>', 'production origin for canonical URLs and the sitemap (default: $SITE_URL, else site.url in the config)')
  .option('-q, --quiet', 'print only errors')
  .option('--json', 'print the result as JSON: {errors, warnings, pages, timings, ...}')
  .option('--no-cache', 'use no build cache: compile the site module and the client bundle, parse every content file and render every page')
  .option('--drafts', 'include draft entries (entries whose field named by their collection\'s `draft` option, as `draft: \'draft\'`, is true)')
  .action(async (flags: BuildFlags) => { process.exitCode = await buildCommand(flags); });

program.command('check')
  .description('Everything build checks (content, routes, static files, links), and the types of a site with a tsconfig.json; writing nothing; print every problem found (pages and links are checked once the content has none); exit 1 if any')
  .option('-r, --root <dir>', 'site folder', '.')
  .option('--json', 'print the result as JSON')
  .option('--drafts', 'check draft entries as a `build --drafts` would include them')
  .option('--no-typecheck', "skip the type check of a site with a tsconfig.json (run with the site's own typescript)")
  .action(async (flags: CheckFlags) => {
    // The site's .env, as build reads it: check must see the settings build runs with.
    loadEnvFile(resolveRoot(flags));
    process.exitCode = (await runCheck(flags)).code;
  });

/**
 * The site's config, for plugin subcommands: loads the compiled site module (from the build cache when it
 * is current). Null, with the problems printed, when the config does not load.
 */
async function siteConfig(root: string): Promise<SiteConfig | null> {
  if (!fs.existsSync(path.join(root, 'sitegen.config.ts'))) return { plugins: [] } as unknown as SiteConfig;
  const { loadSiteModule } = await import('../src/site/index.ts');
  const mod = await loadSiteModule(root);
  if (!mod.site) { printMessages(mod.errors, 'error'); return null; }
  return mod.site.config;
}

/** `sitegen preview`: the engine's preview() with the flags, printed; the signals close it. */
async function runPreview(flags: { root?: string; out: string; port?: number; host: string; backend: boolean }): Promise<number> {
  const root = resolveRoot(flags);
  loadEnvFile(root);
  const { preview, ServerStartError, PREVIEW_PORT, movedNote } = await import('../src/server/preview.ts');
  let server: Awaited<ReturnType<typeof preview>>;
  try {
    server = await preview({ root, outDir: flags.out, port: flags.port, host: flags.host, backend: flags.backend, env: process.env });
  } catch (e) {
    if (!(e instanceof ServerStartError)) throw e;
    if (e.messages.length) printMessages(e.messages, 'error');
    else process.stderr.write(red(`✗ ${visibleControls(e.message)}\n`));
    return 1;
  }
  // Installed in the same turn as the URL is printed: a SIGTERM sent as soon as it appears (tests, process
  // managers) must still close the plugins (databases, locks), not hit Node's default handler.
  const stop = async () => {
    try { await server.close(); } catch (e: any) { process.stderr.write(red(`  closing a server plugin failed: ${e?.message ?? e}\n`)); }
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  stopWithNpm(() => void stop());
  printMessages(server.warnings, 'warning');
  // One write: whoever waits for the URL (tests, scripts) reads the banner and its warnings with it.
  const note = movedNote(server.url, flags.port, PREVIEW_PORT);
  const moved = note && dim(note);
  process.stdout.write([`serving ${path.relative(process.cwd(), server.dir) || server.dir} at ${server.siteUrl}${moved}`, ...server.banner].map((l) => `  ${l}\n`).join(''));
  return 0;
}

program.command('preview')
  .description("Serve the built dist/ as a static host would (404.html with status 404, _headers, _redirects) plus the site's server plugins")
  .option('-r, --root <dir>', 'site folder', '.')
  .option('-o, --out <dir>', 'folder to serve, relative to the root', 'dist')
  .option('-p, --port <n>', 'port (default: 4173, or the next free one after it; 0 picks any free one)', port)
  .option('-H, --host <host>', 'interface to listen on', '127.0.0.1')
  .option('--no-backend', "do not start the site's server plugins (e.g. a local API)")
  .action(async (flags: { root?: string; out: string; port?: number; host: string; backend: boolean }) => {
    process.exitCode = await runPreview(flags);
  });

program.command('dev')
  .description("Build the site in memory and serve it with live reload, an error overlay and the site's server plugins; rebuild what each change feeds")
  .option('-r, --root <dir>', 'site folder', '.')
  .option('-p, --port <n>', 'port (default: 5173, or the next free one after it; 0 picks any free one)', port)
  .option('-H, --host <host>', 'interface to listen on', '127.0.0.1')
  .option('--open', 'open the site in the browser')
  .option('--no-backend', "do not start the site's server plugins (e.g. a local API)")
  .option('--no-cache', 'parse every content file at start, and write no content cache')
  .action(async (flags: { root?: string; port?: number; host: string; open?: boolean; backend: boolean; cache: boolean }) => {
    const { runDev } = await import('./dev.ts');
    process.exitCode = await runDev(flags);
  });

program.command('init [dir]')
  .description('Create a working site in dir (default: here) from a starter template')
  .option('-t, --template <name>', 'the starter: "minimal" (a few posts, a layout, one island), "blog" (posts, tags, pages of posts, a feed, authors, drafts) or "docs" (nested pages, a sidebar, contents, search index)', 'minimal')
  .option('-f, --force', 'write into a folder that is not empty (files of the same name are replaced)')
  .action(async (dir: string | undefined, flags: { force?: boolean; template: string }) => {
    const { runInit } = await import('./init.ts');
    process.exitCode = await runInit(dir ?? '.', flags);
  });

program.command('prepare')
  .description("Compile sitegen's own code for this install (npm runs it after install; the first build would otherwise)")
  .action(async () => {
    const { runPrepare } = await import('./prepare.ts');
    process.exitCode = await runPrepare();
  });

program.command('clean')
  .description("Delete the site's build caches (.sitegen/cache/: content, records of the client bundle and images, page stamps); dist/ stays")
  .option('-r, --root <dir>', 'site folder', '.')
  .option('--shared', 'also delete the client bundles and image variants every site of this install shares (node_modules/.cache/sitegen/client, images); the next build of each site makes what it needs again')
  .action(async (flags: { root?: string; shared?: boolean }) => {
    const root = resolveRoot(flags);
    const { cleanSharedStores, cleanSiteCaches } = await import('../src/pipeline/clean.ts');
    const removed = await cleanSiteCaches(root);
    const where = path.join(path.relative(process.cwd(), root), '.sitegen', 'cache');
    process.stdout.write(removed.length ? `removed from ${where}: ${removed.join(', ')}\n` : `no caches in ${where}\n`);
    if (flags.shared) {
      const stores = await cleanSharedStores();
      process.stdout.write(stores.length ? `removed the shared stores: ${stores.join(', ')}\n` : 'no shared stores\n');
    }
  });

const BUILT_IN = new Set(['build', 'check', 'preview', 'dev', 'init', 'prepare', 'clean', 'help']);

/** The value of -r/--root in argv, before commander has parsed anything. */
function rootFromArgv(argv: string[]): string {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if ((a === '-r' || a === '--root') && argv[i + 1] !== undefined) return path.resolve(argv[i + 1]!);
    if (a.startsWith('--root=')) return path.resolve(a.slice(7));
  }
  return process.cwd();
}

/** Plugin command names ("waitlist export") by their first word, the command the CLI registers. */
function byFirstWord(names: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const name of names) { const w = name.split(' ')[0]!; out.set(w, [...(out.get(w) ?? []), name]); }
  return out;
}

/** The words of argv that are neither an option nor the value of -r/--root. */
function wordsOf(argv: string[]): string[] {
  return argv.filter((a, i) => !a.startsWith('-') && argv[i - 1] !== '-r' && argv[i - 1] !== '--root');
}

/** The built-in command `word` is a typo of: one edit away, two from six letters on ("biuld" → build). */
function typoOfBuiltIn(word: string): string | undefined {
  const most = word.length >= 6 ? 2 : 1;
  return [...BUILT_IN].find((b) => Math.abs(b.length - word.length) <= most && typoDistance(word, b) <= most);
}

/**
 * Plugin subcommands (e.g. `sitegen <plugin> export`) come from the site's config. Only a first word that
 * may be one is worth compiling the site for: not a built-in command or an option (`build`, `--help` and
 * `--version` start as fast as ever), and not a word the site's plugins do not declare. The module cache's
 * record names the plugin commands while the config is unchanged (site/cache.ts); without it, a typo
 * of a built-in command is taken for one (a plugin command may not be named so close to one). Otherwise
 * commander answers "unknown command" with its did-you-mean at once.
 */
async function registerPluginCommands(argv: string[]): Promise<boolean> {
  const first = argv[0];
  // `sitegen --help` (or `help` alone) lists the site's plugin commands beside the built-in ones.
  if ((first === '-h' || first === '--help' || first === 'help') && !wordsOf(argv.slice(1)).length) return listPluginCommands(rootFromArgv(argv));
  if (first === undefined || first.startsWith('-') || BUILT_IN.has(first)) return true;
  const root = rootFromArgv(argv);
  const { cachedCommandNames } = await import('../src/site/cache.ts');
  const known = cachedCommandNames(root);
  if (known ? !byFirstWord(known).has(first) : typoOfBuiltIn(first) !== undefined) {
    // Listed by name (nothing is loaded to run them here), so that a typo of one is suggested too.
    for (const word of byFirstWord(known ?? []).keys()) program.command(word).description("Commands of the site's plugins");
    return true;
  }
  loadEnvFile(root);
  const config = await siteConfig(root);
  if (config === null) return false;
  addPluginCommands(config);
  return true;
}

/** For help: the site's plugin commands, by name, as the module cache's record has them (help compiles
 *  nothing); a site not compiled yet gets a line saying when they are listed. */
async function listPluginCommands(root: string): Promise<boolean> {
  if (!fs.existsSync(path.join(root, 'sitegen.config.ts'))) return true;
  const { cachedCommandNames } = await import('../src/site/cache.ts');
  const known = cachedCommandNames(root);
  if (known === null) program.addHelpText('after', "\nA site's plugin commands are listed here once the site has been built or checked.");
  for (const [word, names] of byFirstWord(known ?? [])) program.command(word).description(`The site's plugins: ${names.map((n) => `sitegen ${n}`).join(', ')} (each with --help)`);
  return true;
}

/** Each plugin's commands as commands of the program. */
function addPluginCommands(config: SiteConfig): void {
  for (const plugin of config.plugins ?? []) {
    for (const def of plugin.commands ?? []) {
      const word = def.name[0]!;
      const near = BUILT_IN.has(word) ? word : typoOfBuiltIn(word);
      if (near !== undefined) {
        process.stderr.write(yellow(`! the ${plugin.name} plugin's command "${def.name.join(' ')}" is ignored: "${word}" is ${near === word ? 'a' : 'too close to the'} built-in command${near === word ? '' : ` "${near}"`}; rename it\n`));
        continue;
      }
      let parent: Command = program;
      for (const w of def.name.slice(0, -1)) {
        parent = parent.commands.find((c) => c.name() === w) ?? parent.command(w).description(`Commands of the ${plugin.name} plugin`);
      }
      const cmd = parent.command(def.name[def.name.length - 1]!).description(def.description)
        .option('-r, --root <dir>', 'site folder', '.');
      for (const o of def.options ?? []) cmd.option(o.flags, o.description, o.default as string | boolean | undefined);
      cmd.action(async (flags: Record<string, any>) => {
        const root = resolveRoot(flags);
        try {
          process.exitCode = await def.run(flags, { root, env: process.env });
        } catch (e) {
          // The plugin's own failure, located in its code: not a crash of sitegen.
          printMessages([thrownBySite(e, root, `the ${plugin.name} plugin's command "${def.name.join(' ')}" failed`)], 'error');
          process.exitCode = 1;
        }
      });
    }
  }
}

/** Parses `argv` (process.argv's form) and runs the command; the exit code goes to process.exitCode. */
export async function runProgram(argv: string[]): Promise<void> {
  if (!(await registerPluginCommands(argv.slice(2)))) { process.exitCode = 1; return; }
  await program.parseAsync(argv);
}
