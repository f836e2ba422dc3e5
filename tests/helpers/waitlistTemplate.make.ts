// Makes the template waitlist database for tests/helpers/waitlistTemplate.setup.ts, in a process of its own
// (`node --liftoff-only --import tsx this-file <making> <home>`): openWaitlistDb in `<making>/db`, closed,
// then renamed to `<home>/db` in one step, so a worker sees the whole folder or none of it. If it fails,
// `<home>/error` says why (copyEmptyDatabase reports it).
import fs from 'node:fs';
import path from 'node:path';
import { openWaitlistDb } from '../../plugins/waitlist/db.ts';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../supabase/migrations');
const [making, home] = process.argv.slice(2) as [string, string];

try {
  const db = await openWaitlistDb({ dataDir: path.join(making, 'db'), migrationsDir: MIGRATIONS });
  await db.close();
  try {
    fs.renameSync(path.join(making, 'db'), path.join(home, 'db'));
  } catch (error) {
    // Another run with the same inputs made it first (its copy is the same); keep theirs.
    if (!fs.existsSync(path.join(home, 'db'))) throw error;
  }
} catch (error) {
  fs.writeFileSync(path.join(making, 'error'), String((error as Error)?.stack ?? error));
  fs.renameSync(path.join(making, 'error'), path.join(home, 'error'));
  process.exitCode = 1;
} finally {
  fs.rmSync(making, { recursive: true, force: true });
}
