// Mounts the embedded waitlist backend (PGlite behind a PostgREST-compatible API) in `sitegen preview`
// and `sitegen dev`, and runs `sitegen waitlist export` against it or against Supabase.
import fs from 'node:fs';
import path from 'node:path';
import type { Handler } from '../src/serve.ts';
import { createWaitlistBackend } from '../src/waitlist/backend.ts';
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from '../src/waitlist/keys.ts';
import { exportWaitlist } from '../src/waitlist/export.ts';
import { loadEnvFile } from './env.ts';
import { dim, red } from './report.ts';

/** The data folder: $SITEGEN_WAITLIST_DIR, else <root>/.sitegen/waitlist (git-ignored, survives restarts). */
export function waitlistDataDir(root: string): string {
  return path.resolve(process.env.SITEGEN_WAITLIST_DIR ?? path.join(root, '.sitegen', 'waitlist'));
}

const serverFile = (root: string) => path.join(root, '.sitegen', 'server.json');

/** A problem the person running sitegen can fix: printed without a stack, exit code 1. */
export class CliError extends Error {}

/**
 * PGlite does not lock its data folder, and two servers writing one database would corrupt it. The first
 * server takes `<dataDir>.lock` (holding its pid); another is refused while that process lives, and a lock
 * left by a process that died is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const lock = `${dataDir}.lock`;
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return () => { try { if (fs.readFileSync(lock, 'utf8') === String(process.pid)) fs.rmSync(lock); } catch { /* gone */ } };
    } catch (e: any) {
      if (e.code !== 'EEXIST') throw e;
      const pid = Number(fs.readFileSync(lock, 'utf8'));
      let alive = false;
      try { process.kill(pid, 0); alive = pid > 0 && pid !== process.pid; } catch { /* no such process */ }
      if (alive) throw new CliError(`the waitlist database ${path.relative(process.cwd(), dataDir) || dataDir} is in use by another sitegen server (pid ${pid}): stop it, run this one with --no-backend, or give it its own SITEGEN_WAITLIST_DIR`);
      fs.rmSync(lock, { force: true }); // left by a process that is gone
    }
  }
  throw new CliError(`could not lock ${lock}`);
}

export async function startLocalWaitlist(root: string) {
  const dataDir = waitlistDataDir(root);
  const unlock = lockDataDir(dataDir);
  // The backend logs its own start-up ("waitlist: database ready in … ms") and failures.
  const backend = createWaitlistBackend({ dataDir, log: (line) => process.stderr.write(dim(`  ${line}\n`)) });
  backend.ready.catch((e) => process.stderr.write(red(`  waitlist database failed to start: ${e?.message ?? e}\n`)));
  const handlers: Handler[] = [(req, res) => backend.handle(req, res)];
  return {
    handlers,
    banner: [
      `waitlist API at /rest/v1/waitlist (embedded Postgres, starting in the background)`,
      dim(`local anon key:         ${LOCAL_ANON_KEY}`),
      dim(`local service-role key: ${LOCAL_SERVICE_ROLE_KEY}`),
    ],
    onListening(url: string) {
      fs.mkdirSync(path.dirname(serverFile(root)), { recursive: true });
      fs.writeFileSync(serverFile(root), JSON.stringify({ url, pid: process.pid }));
    },
    async close() {
      try { fs.rmSync(serverFile(root), { force: true }); } catch { /* already gone */ }
      // The lock goes even when closing fails (a database still starting under load), or it would refuse
      // the next server until the stale-pid check.
      try { await backend.close(); } finally { unlock(); }
    },
  };
}

function runningLocalServer(root: string): string | null {
  try {
    const { url, pid } = JSON.parse(fs.readFileSync(serverFile(root), 'utf8'));
    process.kill(pid, 0); // throws when that server is gone
    return url;
  } catch {
    return null;
  }
}

export async function runExport(root: string, flags: { format: string; url?: string; output?: string }): Promise<number> {
  loadEnvFile(root);
  if (flags.format !== 'csv' && flags.format !== 'json') {
    process.stderr.write(red(`✗ --format must be csv or json, not "${flags.format}"\n`));
    return 1;
  }
  const remote = flags.url ?? process.env.SUPABASE_URL;
  const url = remote ?? runningLocalServer(root);
  if (!url) {
    process.stderr.write(red('✗ no waitlist to export: start `sitegen preview` or `sitegen dev` for the local one, or set SUPABASE_URL (or --url) and SUPABASE_SERVICE_ROLE_KEY\n'));
    return 1;
  }
  const isLocal = !remote || /^https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/?$/.test(remote) && !process.env.SUPABASE_SERVICE_ROLE_KEY;
  const serviceKey = isLocal ? LOCAL_SERVICE_ROLE_KEY : process.env.SUPABASE_SERVICE_ROLE_KEY;
  if (!serviceKey) {
    process.stderr.write(red('✗ SUPABASE_SERVICE_ROLE_KEY is not set: exporting from Supabase needs the service-role key (keep it off the site and out of git)\n'));
    return 1;
  }
  try {
    const text = await exportWaitlist({ url, serviceKey, format: flags.format });
    if (flags.output) {
      fs.writeFileSync(flags.output, text);
      process.stderr.write(`✓ wrote ${flags.output}\n`);
    } else process.stdout.write(text);
    return 0;
  } catch (e: any) {
    process.stderr.write(red(`✗ export from ${url} failed: ${e?.message ?? e}\n`));
    return 1;
  }
}
