// `sitegen dev`: builds the site in memory (dist/ is never touched), serves it like `sitegen preview`
// with the site's server plugins, watches the site's files and rebuilds what each change feeds, with live
// reload and an error overlay in open pages. Prints one line per rebuild; problems as `build` prints them.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { RebuildReport } from '../src/dev/index.ts';
import { DEV_PORT, dev, movedNote, ServerStartError } from '../src/server/index.ts';
import { printMessages, dim, green, red, yellow } from './report.ts';
import { loadEnvFile } from './env.ts';
import { configureEngine } from '../src/core/settings.ts';
import { visibleControls } from '../src/core/errors.ts';
import { engineSettingsFrom } from './options.ts';
import { terminal, type Io } from './commands.ts';
import { stopWithNpm } from './npmParent.ts';

export interface DevFlags { root?: string; port?: number; host: string; open?: boolean; backend: boolean; cache?: boolean }

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A warning by what it says of which file, not where: one that only moved (a line added above it) is not new. */
const warningKey = (m: RebuildReport['errors'][number]) => `${m.location?.file ?? ''}\0${m.text}`;
const counted = (list: RebuildReport['errors']) => { const n = new Map<string, number>(); for (const m of list) n.set(warningKey(m), (n.get(warningKey(m)) ?? 0) + 1); return n; };

/** Prints a rebuild's report; of its warnings, those the terminal has not shown since they last applied (an
 *  edit that adds one prints that one, not every warning of the site again), and how many shown ones no longer
 *  apply; and what the pages show meanwhile: the last good build, or the error page while there has been none. */
function printReport(r: RebuildReport, io: Io, shown: { warnings: Map<string, number>; built: boolean }): void {
  if (r.warnings) {
    const now = counted(r.warnings);
    const seen = new Map<string, number>();
    const fresh = r.warnings.filter((m) => { const k = warningKey(m); const i = (seen.get(k) ?? 0) + 1; seen.set(k, i); return i > (shown.warnings.get(k) ?? 0); });
    let gone = 0;
    for (const [k, n] of shown.warnings) gone += Math.max(0, n - (now.get(k) ?? 0));
    printMessages(fresh, 'warning', (s) => io.err(s + '\n'));
    if (gone) io.err(dim(`  ${plural(gone, 'warning')} shown before no longer ${gone === 1 ? 'applies' : 'apply'}\n`));
    shown.warnings = now;
  }
  if (r.errors.length) {
    printMessages(r.errors, 'error', (s) => io.err(s + '\n'));
    const serving = shown.built ? 'serving the last good build' : 'the pages show the problems until they are fixed';
    io.err(red(`✗ ${r.what} → ${plural(r.errors.length, 'error')}; ${serving} (${r.ms} ms)\n`));
    return;
  }
  shown.built = true;
  // (dev shows drafts, which a build leaves out: its page count says so, or it would not be the build's)
  const drafts = r.drafts ? `, with ${r.drafts === 1 ? 'a draft entry' : `${r.drafts} draft entries`} that \`sitegen build\` leaves out` : '';
  const line = r.what === 'start' ? `built ${plural(r.rendered, 'page')} in memory in ${r.ms} ms${drafts}` : `${r.what} → ${plural(r.rendered, 'route')} re-rendered in ${r.ms} ms`;
  io.out(`${green('✓')} ${line}\n`);
}

/** Opens the URL with the platform's opener when there is one; a missing opener is not an error. */
function openBrowser(url: string): void {
  const [cmd, args] = process.platform === 'darwin' ? ['open', [url]]
    : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]]
      : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => process.stdout.write(dim(`  (could not open a browser with ${cmd}; open ${url}/ yourself)\n`)));
    child.unref();
  } catch { /* no opener on this system */ }
}

/** A running dev server: its URL and how to stop it (the dev server, the HTTP server, the plugins). */
export interface DevHandle { url: string; close(): Promise<void> }

/**
 * Starts `sitegen dev` for the flags, printing to `io`: the exit code when it could not start, else the
 * running server. The engine's dev() does the work; runDev adds the terminal, the signals and --open;
 * tests call this in process.
 */
export async function startDev(flags: DevFlags, io: Io = terminal()): Promise<{ code: number; dev?: DevHandle }> {
  const root = path.resolve(io.cwd, flags.root ?? '.');
  if (!fs.existsSync(path.join(root, 'sitegen.config.ts'))) {
    io.err(red(`✗ No sitegen.config.ts in ${root}\n`) + dim('  hint: Run sitegen in a site folder or pass --root.\n'));
    return { code: 1 };
  }
  io.out(dim(`sitegen dev ${root}\n`));
  // The content cache a build keeps answers the files that did not change (off with --no-cache).
  configureEngine(engineSettingsFrom(flags, io.env));
  const shown = { warnings: new Map<string, number>(), built: false };
  let handle: Awaited<ReturnType<typeof dev>> | undefined;
  let servedAt = '';
  try {
    handle = await dev({
      root, port: flags.port, host: flags.host, backend: flags.backend, env: io.env,
      onStart: (r, notices) => {
        printReport(r, io, shown);
        for (const n of notices) io.out(`${yellow('note')} ${n}\n`);
      },
      onReport: (r) => {
        printReport(r, io, shown);
        if (r.plugins?.errors.length) printMessages(r.plugins.errors, 'error', (s) => io.err(s + '\n'));
        else if (r.plugins?.count) io.out([dim('server plugins restarted for the new config'), ...r.plugins.banner].map((l) => `  ${l}\n`).join(''));
        else if (r.plugins?.stopped) io.out(`  ${dim('server plugins stopped: the new config has none')}\n`);
        // A config edit that changes the site's base moves the pages: say where they are now.
        const now = handle?.siteUrl();
        if (now && servedAt && now !== servedAt) { servedAt = now; io.out(`  the site is now at ${now}\n`); }
      },
      onError: (e: any) => io.err(red(`sitegen dev: ${e?.stack ?? e}\n`)),
    });
  } catch (e) {
    if (!(e instanceof ServerStartError)) throw e;
    if (e.messages.length) printMessages(e.messages, 'error', (s) => io.err(s + '\n'));
    else io.err(red(`✗ ${visibleControls(e.message)}\n`));
    return { code: 1 };
  }
  const running = handle;
  const close = async () => {
    try { await running.close(); } catch (e: any) { io.err(red(`  closing a server plugin failed: ${e?.message ?? e}\n`)); }
  };
  // One write: whoever waits for the URL (tests, scripts) reads the banner and its warnings with it.
  servedAt = running.siteUrl();
  const note = movedNote(running.url, flags.port, DEV_PORT);
  const moved = note && dim(note);
  io.out([`serving ${path.relative(io.cwd, root) || 'this folder'} from memory at ${servedAt}${moved}`, ...running.banner,
    dim('watching content/, templates/, static/, sitegen.config.ts and tsconfig.json')].map((l) => `  ${l}\n`).join(''));
  return { code: 0, dev: { url: running.url, close } };
}

export async function runDev(flags: DevFlags): Promise<number> {
  loadEnvFile(path.resolve(flags.root ?? process.cwd()));
  // Installed before the server starts: it answers requests before its first build ends, so whoever
  // reaches it may stop it at once (the handlers below wait for the start); it still closes the plugins (databases,
  // locks) and finishes writing the content cache, once the start is over.
  let close: (() => Promise<void>) | undefined;
  let stopAsked = false;
  const stop = async () => { stopAsked = true; if (close) { await close(); process.exit(0); } };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  stopWithNpm(() => void stop());
  const started = await startDev(flags);
  if (!started.dev) return started.code;
  const { url } = started.dev;
  close = started.dev.close;
  if (stopAsked) { await stop(); return 0; }
  if (flags.open) openBrowser(url);
  // A dev server outlives the bugs it meets: an internal error is reported, and the last good site stays up.
  process.on('uncaughtException', (e) => {
    process.stderr.write(red(`sitegen dev: internal error (a bug in sitegen, please report it); still serving, restart if pages stop updating:\n${e?.stack ?? e}\n`));
  });
  return 0;
}
