// The waitlist as a plugin of the site: registered in sitegen.config.ts with `plugins: [waitlist()]`.
//   config   → island defines (Supabase URL + anon key), CSP, notices and the build guards (guards.ts)
//   server   → the local PostgREST-compatible backend at /rest/v1/waitlist for dev/preview (local.ts)
//   commands → `sitegen waitlist export`
// This file is compiled into the site module, which every build loads: the backend, PGlite and the export
// are imported only when a server starts or the command runs.
import path from 'node:path';
import type { SitegenPlugin } from 'sitegen-islands';
import { waitlistConfig } from './guards.ts';

export { LOCAL_ANON_KEY } from './keys.ts';

export interface WaitlistPluginOptions {
  /** The folder of SQL migrations, relative to the site root. Default "supabase/migrations". */
  migrations?: string;
}

export function waitlist(options: WaitlistPluginOptions = {}): SitegenPlugin {
  const migrations = options.migrations ?? 'supabase/migrations';
  return {
    name: 'waitlist',
    config: (ctx) => waitlistConfig(ctx),
    async server(ctx) {
      const { startLocalWaitlist } = await import('./local.ts');
      return startLocalWaitlist(ctx, { migrationsDir: path.resolve(ctx.root, migrations) });
    },
    commands: [{
      name: ['waitlist', 'export'],
      description: 'Print every waitlist row as CSV or JSON (service-role key; local server by default, Supabase with SUPABASE_URL)',
      options: [
        { flags: '-f, --format <format>', description: 'csv or json', default: 'csv' },
        { flags: '--url <url>', description: 'PostgREST base URL (default: $SUPABASE_URL, else the local preview server)' },
        { flags: '-o, --output <file>', description: 'write to a file instead of standard output' },
      ],
      async run(flags, ctx) {
        const { runExport } = await import('./local.ts');
        return runExport(ctx, { format: flags.format, url: flags.url, output: flags.output });
      },
    }],
  };
}
