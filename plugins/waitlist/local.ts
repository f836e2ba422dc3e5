// The waitlist plugin's Node side: starts the embedded backend (PGlite behind a PostgREST-compatible API)
// for `sitegen dev` / `sitegen preview` (the `server` hook), and runs `sitegen waitlist export` against it
// or against Supabase (the command). Loaded only when one of those runs, never by a build.
import fs from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import type { Message, ServerContext, ServerContribution } from 'sitegen-islands';
import { createWaitlistBackend } from './backend.ts';
import { DamagedDatabaseError, inspectDataDir } from './db.ts';
import { checkExportUrl, exportWaitlist, WaitlistExportError } from './export.ts';
import { isLoopbackHost } from './http.ts';
import { LOCAL_ANON_KEY } from './keys.ts';
import { writePrivateFile } from './privateFile.ts';
import { ensureServiceKey, readServiceKey, serviceKeyFile } from './serviceKey.ts';

type Env = Readonly<Record<string, string | undefined>>;

export interface LocalWaitlistOptions {
  /** The site's migrations folder (absolute). */
  migrationsDir: string;
}

/** The data folder: $SITEGEN_WAITLIST_DIR, else <root>/.sitegen/waitlist (git-ignored, survives restarts). */
export function waitlistDataDir(root: string, env: Env): string {
  return path.resolve(root, env.SITEGEN_WAITLIST_DIR || path.join('.sitegen', 'waitlist'));
}

const serverFile = (root: string) => path.join(root, '.sitegen', 'server.json');

/** A problem the person running sitegen can fix: printed without a stack, exit code 1. */
export class WaitlistUserError extends Error {}

const dim = (s: string) => (process.env.NO_COLOR || !process.stdout.isTTY ? s : `\x1b[2m${s}\x1b[22m`);
const problem = (text: string, hint?: string): Message => ({ id: 'ConfigError', text, location: null, notes: [], hint });

/**
 * PGlite does not lock its data folder, and two servers writing one database would corrupt it. The first
 * server takes `<real path of dataDir>.lock` (holding its pid) -- by real path, so a symlink to the same
 * folder is refused like the folder itself; another is refused while that process lives, and a lock left by
 * a process that died is taken over.
 */
function lockDataDir(realDir: string, shown: string): () => void {
  const lock = `${realDir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => { try { if (fs.readFileSync(lock, 'utf8') === String(process.pid)) fs.rmSync(lock); } catch { /* gone */ } };
    } catch (e: any) {
      if (e.code !== 'EEXIST') throw e;
      const pid = Number(fs.readFileSync(lock, 'utf8'));
      let alive = false;
      try { process.kill(pid, 0); alive = pid > 0 && pid !== process.pid; } catch { /* no such process */ }
      if (alive) throw new WaitlistUserError(`the waitlist database ${shown} is in use by another sitegen server (pid ${pid}): stop it, run this one with --no-backend, or give it its own SITEGEN_WAITLIST_DIR`);
      fs.rmSync(lock, { force: true }); // left by a process that is gone
    }
  }
  throw new WaitlistUserError(`could not lock ${lock}`);
}

/** Where `sitegen waitlist export` finds the running server and its database: <root>/.sitegen/server.json, 0600. */
export function writeServerFile(root: string, info: { url: string; pid: number; dataDir: string }): void {
  fs.mkdirSync(path.dirname(serverFile(root)), { recursive: true });
  writePrivateFile(serverFile(root), JSON.stringify(info));
}

/** How long the server must have had no request in flight before the database opens (unless one needs it). */
export const OPEN_WHEN_IDLE_MS = 300;
/** A wait that ends this much later than asked was not idle: the thread was busy (requests may be queued). */
const LATE_MS = 100;

/**
 * Opening the database holds the thread about half a second (Postgres starting in WebAssembly), and a page or
 * stylesheet asked for meanwhile waits for it; so does the rest of the server's start, which goes on after it
 * listens. So it opens once the server has answered its first requests (a browser's first page and its
 * assets) and has then been idle for OPEN_WHEN_IDLE_MS: no request in flight, and the thread free (a wait that
 * ends late means the thread was busy, and requests may be waiting to be read: then it waits again). A
 * waitlist request opens it at once (backend.ts); with no request at all nothing needs it.
 */
export function openWhenIdle(backend: { open(): Promise<void> }): { request(res: ServerResponse): void; stop(): void } {
  let inFlight = 0;
  let seen = false; // a request was answered
  let done = false; // opened, or stopped
  let timer: NodeJS.Timeout | null = null;
  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!seen || done || inFlight > 0) return;
    const at = Date.now();
    timer = setTimeout(() => {
      timer = null;
      if (Date.now() - at > OPEN_WHEN_IDLE_MS + LATE_MS) return arm();
      done = true;
      void backend.open().catch(() => { /* logged by the backend */ });
    }, OPEN_WHEN_IDLE_MS);
    timer.unref();
  };
  return {
    request(res) {
      if (done) return;
      inFlight++;
      arm();
      res.once('close', () => { inFlight--; seen = true; arm(); });
    },
    stop() { done = true; arm(); },
  };
}

export async function startLocalWaitlist(ctx: ServerContext, options: LocalWaitlistOptions): Promise<ServerContribution> {
  const dataDir = waitlistDataDir(ctx.root, ctx.env);
  const shown = path.relative(process.cwd(), dataDir) || dataDir;
  let realDir: string;
  let unlock: () => void;
  try {
    if (inspectDataDir(dataDir) === 'new') fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    realDir = fs.realpathSync(dataDir);
    unlock = lockDataDir(realDir, shown);
  } catch (e) {
    if (e instanceof DamagedDatabaseError || e instanceof WaitlistUserError) return { handlers: [], errors: [problem(e.message)] };
    throw e;
  }
  const serviceKey = ensureServiceKey(realDir);
  // The backend logs its own start-up ("waitlist: database ready in … ms") and failures.
  const backend = createWaitlistBackend({
    dataDir: realDir, migrationsDir: options.migrationsDir, serviceKey, host: ctx.host, openLater: true,
    log: (line) => process.stderr.write(dim(`  ${line}\n`)),
  });
  backend.ready.catch(() => { /* logged by the backend; requests answer 503 */ });
  const idle = openWhenIdle(backend);
  void ctx.origin.then((url) => writeServerFile(ctx.root, { url, pid: process.pid, dataDir: realDir }), () => {});
  const banner = [
    'waitlist API at /rest/v1/waitlist (embedded Postgres, opened in the background once the first pages are served)',
    dim(`local anon key (public, insert only): ${LOCAL_ANON_KEY}`),
    dim(`local service-role key (this database only, from this machine only): ${serviceKey}`),
    dim(`  kept in ${path.relative(process.cwd(), serviceKeyFile(realDir)) || serviceKeyFile(realDir)}`),
  ];
  if (!isLoopbackHost(ctx.host)) {
    banner.push(`warning: listening on ${ctx.host}, not loopback: other machines can reach this server and post to the local waitlist (the service-role key still works only from this machine)`);
  }
  return {
    handlers: [(req, res) => { idle.request(res); return backend.handle(req, res); }],
    banner,
    async close() {
      idle.stop();
      try { fs.rmSync(serverFile(ctx.root), { force: true }); } catch { /* already gone */ }
      // The lock goes even when closing fails (a database still starting under load), or it would refuse
      // the next server until the stale-pid check.
      try { await backend.close(); } finally { unlock(); }
    },
  };
}

function runningLocalServer(root: string): { url: string; dataDir?: string } | null {
  try {
    const { url, pid, dataDir } = JSON.parse(fs.readFileSync(serverFile(root), 'utf8'));
    process.kill(pid, 0); // throws when that server is gone
    return { url, dataDir };
  } catch {
    return null;
  }
}

export interface ExportFlags { format: string; url?: string; output?: string }

export async function runExport(ctx: { root: string; env: Env }, flags: ExportFlags): Promise<number> {
  const fail = (text: string) => { process.stderr.write(`✗ ${text}\n`); return 1; };
  if (flags.format !== 'csv' && flags.format !== 'json') return fail(`--format must be csv or json, not "${flags.format}"`);
  const remote = flags.url ?? (ctx.env.SUPABASE_URL || undefined);
  const running = remote ? null : runningLocalServer(ctx.root);
  const url = remote ?? running?.url;
  if (!url) return fail('no waitlist to export: start `sitegen preview` or `sitegen dev` for the local one, or set SUPABASE_URL (or --url) and SUPABASE_SERVICE_ROLE_KEY');
  let target: URL;
  try { target = checkExportUrl(url); } catch (e: any) { return fail(e.message); }
  // This machine without a hosted key is the local backend: its key is the random one beside its database.
  const isLocal = !remote || (isLoopbackHost(target.hostname) && !ctx.env.SUPABASE_SERVICE_ROLE_KEY);
  let serviceKey: string | undefined;
  if (isLocal) {
    const dataDir = running?.dataDir ?? runningLocalServer(ctx.root)?.dataDir ?? waitlistDataDir(ctx.root, ctx.env);
    serviceKey = readServiceKey(dataDir) ?? undefined;
    if (!serviceKey) return fail(`no local service-role key at ${serviceKeyFile(dataDir)}: start \`sitegen preview\` or \`sitegen dev\` once to create the local database`);
  } else {
    serviceKey = ctx.env.SUPABASE_SERVICE_ROLE_KEY;
    if (!serviceKey) return fail('SUPABASE_SERVICE_ROLE_KEY is not set: exporting from Supabase needs the service-role key (keep it off the site and out of git)');
  }
  try {
    const text = await exportWaitlist({ url: target.href, serviceKey, format: flags.format });
    if (flags.output) {
      writePrivateFile(flags.output, text);
      process.stderr.write(`✓ wrote ${flags.output}\n`);
    } else process.stdout.write(text);
    return 0;
  } catch (e: any) {
    if (e instanceof WaitlistExportError) return fail(`export from ${target.origin} failed: ${e.message}`);
    throw e;
  }
}
