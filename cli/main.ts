// The `sitegen` command: parses arguments with commander and prints what the engine returns.
// Exit codes: 0 ok, 1 a problem the user can fix (content, config, links), 2 a bug in sitegen.
import path from 'node:path';
import fs from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import type { Handler } from '../src/serve.ts';
import { printMessages, summary, jsonResult, dim, red } from './report.ts';
import { loadEnvFile } from './env.ts';
import { engineSettingsFrom } from './options.ts';

const program = new Command();

function port(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port number (0-65535)');
  return n;
}

function resolveRoot(opts: { root?: string }): string {
  return path.resolve(opts.root ?? process.cwd());
}

interface BuildFlags { root?: string; out?: string; siteUrl?: string; quiet?: boolean; json?: boolean; cache?: boolean }

async function runBuild(flags: BuildFlags): Promise<number> {
  const root = resolveRoot(flags);
  loadEnvFile(root);
  const log = (s: string) => { if (!flags.quiet && !flags.json) process.stdout.write(s + '\n'); };
  log(dim(`sitegen build ${root}`));
  // Commands import what they need when they run: `--help` and `check` never load the renderer or sirv.
  const { build } = await import('../src/build.ts');
  const result = await build({
    root, outDir: flags.out, siteUrl: flags.siteUrl, settings: engineSettingsFrom(flags, process.env),
    onStage: (name, ms, note) => log(dim(`  ${name.padEnd(12)} ${ms.toFixed(0).padStart(6)} ms${note ? ` (${note})` : ''}`)),
  });
  if (flags.json) process.stdout.write(jsonResult(result) + '\n');
  if (result.errors.length) {
    if (!flags.json) {
      printMessages(result.errors, 'error');
      process.stderr.write(red(`✗ build failed with ${result.errors.length} error${result.errors.length > 1 ? 's' : ''}; ${path.relative(process.cwd(), result.outDir) || result.outDir} was left as it was\n`));
    }
    return 1;
  }
  if (!flags.json && !flags.quiet) printMessages(result.warnings, 'warning');
  log(summary(result));
  return 0;
}

program
  .name('sitegen')
  .description('Build a static site from zod-validated YAML/Markdown content and React templates.')
  .version('0.1.0')
  .showHelpAfterError();

program.command('build')
  .description('Validate content, render every route and write the site to dist/ (swapped in only on success)')
  .option('-r, --root <dir>', 'site folder (with sitegen.config.ts, content/, templates/, static/)', '.')
  .option('-o, --out <dir>', 'output folder, relative to the root', 'dist')
  .option('--site-url <url>', 'production origin for canonical URLs and the sitemap (default: site.url in the config, or $SITE_URL)')
  .option('-q, --quiet', 'print only errors')
  .option('--json', 'print the result as JSON: {errors, warnings, pages, timings, ...}')
  .option('--no-cache', 'compile the site module and the client bundle even when node_modules/.cache/sitegen has them')
  .action(async (flags: BuildFlags) => { process.exitCode = await runBuild(flags); });

program.command('check')
  .description('Validate all content and routes without rendering; print every problem; exit 1 if any')
  .option('-r, --root <dir>', 'site folder', '.')
  .option('--json', 'print the result as JSON')
  .action(async (flags: { root?: string; json?: boolean }) => {
    const root = resolveRoot(flags);
    const { checkSite } = await import('../src/build.ts');
    const result = await checkSite({ root, settings: engineSettingsFrom({}, process.env) });
    if (flags.json) process.stdout.write(jsonResult(result) + '\n');
    if (result.errors.length) {
      if (!flags.json) { printMessages(result.errors, 'error'); process.stderr.write(red(`✗ ${result.errors.length} problem${result.errors.length > 1 ? 's' : ''} found\n`)); }
      process.exitCode = 1;
      return;
    }
    if (!flags.json) process.stdout.write(`✓ content valid: ${result.pages} routes, ${result.aliases} aliases (${result.timings.total} ms)\n`);
  });

async function backendHandlers(root: string, enabled: boolean): Promise<{ handlers: Handler[]; close: () => Promise<void>; banner: string[]; onListening?: (url: string) => void }> {
  if (!enabled) return { handlers: [], close: async () => {}, banner: [] };
  const { startLocalWaitlist } = await import('./localWaitlist.ts');
  return startLocalWaitlist(root);
}

async function serve(dir: string, root: string, flags: { port: number; host: string; backend: boolean }) {
  const backend = await backendHandlers(root, flags.backend);
  let server: import('node:http').Server | null = null;
  // Installed before anything is printed: a SIGTERM sent as soon as the URL appears (tests, process
  // managers) must still close the database and release its lock, not hit Node's default handler.
  const stop = async () => {
    server?.close();
    try { await backend.close(); } catch (e: any) { process.stderr.write(red(`  closing the waitlist database failed: ${e?.message ?? e}\n`)); }
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const { createStaticHandler, listen } = await import('../src/serve.ts');
  const http = await import('node:http');
  server = http.createServer(createStaticHandler({ dir, handlers: backend.handlers }));
  const url = await listen(server, flags.port, flags.host);
  backend.onListening?.(url);
  process.stdout.write(`  serving ${path.relative(process.cwd(), dir) || dir} at ${url}/\n`);
  for (const line of backend.banner) process.stdout.write(`  ${line}\n`);
  return { server, url };
}

program.command('preview')
  .description('Serve the built dist/ as a static host would (404.html with status 404, _headers, _redirects) plus the local waitlist API')
  .option('-r, --root <dir>', 'site folder', '.')
  .option('-o, --out <dir>', 'folder to serve, relative to the root', 'dist')
  .option('-p, --port <n>', 'port', port, 4173)
  .option('-H, --host <host>', 'interface to listen on', '127.0.0.1')
  .option('--no-backend', 'do not serve the local waitlist API at /rest/v1')
  .action(async (flags: { root?: string; out: string; port: number; host: string; backend: boolean }) => {
    const root = resolveRoot(flags);
    const dir = path.resolve(root, flags.out);
    if (!fs.existsSync(path.join(dir, 'index.html'))) {
      process.stderr.write(red(`✗ ${dir} has no built site: run \`sitegen build\` first\n`));
      process.exitCode = 1;
      return;
    }
    await serve(dir, root, flags);
  });

program.command('dev')
  .description('Build the site in memory and serve it with live reload, an error overlay and the local waitlist API; rebuild what each change feeds')
  .option('-r, --root <dir>', 'site folder', '.')
  .option('-p, --port <n>', 'port (0 picks a free one)', port, 5173)
  .option('-H, --host <host>', 'interface to listen on', '127.0.0.1')
  .option('--open', 'open the site in the browser')
  .option('--no-backend', 'do not serve the local waitlist API at /rest/v1')
  .action(async (flags: { root?: string; port: number; host: string; open?: boolean; backend: boolean }) => {
    const { runDev } = await import('./dev.ts');
    process.exitCode = await runDev(flags);
  });

const waitlist = program.command('waitlist').description("The site owner's waitlist tools");
waitlist.command('export')
  .description('Print every waitlist row as CSV or JSON (service-role key; local server by default, Supabase with SUPABASE_URL)')
  .option('-r, --root <dir>', 'site folder', '.')
  .option('-f, --format <format>', 'csv or json', 'csv')
  .option('--url <url>', 'PostgREST base URL (default: $SUPABASE_URL, else the local preview server)')
  .option('-o, --output <file>', 'write to a file instead of standard output')
  .action(async (flags: { root?: string; format: string; url?: string; output?: string }) => {
    const { runExport } = await import('./localWaitlist.ts');
    process.exitCode = await runExport(resolveRoot(flags), flags);
  });

program.parseAsync(process.argv).catch(async (e) => {
  const { CliError } = await import('./localWaitlist.ts');
  if (e instanceof CliError) { process.stderr.write(red(`✗ ${e.message}\n`)); process.exit(1); }
  process.stderr.write(red(`sitegen crashed (a bug in sitegen, please report it):\n${e?.stack ?? e}\n`));
  process.exit(2);
});
