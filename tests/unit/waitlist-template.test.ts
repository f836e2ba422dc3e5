// openWaitlistDb's `template`: an in-memory database starts from a given dump instead of initdb, and the
// in-memory databases this process opens later with the same migrations start from it too.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openWaitlistDb } from '../../plugins/waitlist/db.ts';
import { emptyDatabaseDump } from '../helpers/waitlistTemplate.ts';

// Copies of the migrations folder: templates are kept per folder, so these never reach another file's databases.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-template-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
function migrations(name: string): string {
  const dir = path.join(tmp, name);
  fs.cpSync(path.resolve(import.meta.dirname, '../../supabase/migrations'), dir, { recursive: true });
  return dir;
}
const emails = async (db: Awaited<ReturnType<typeof openWaitlistDb>>) =>
  (await db.query<{ email: string }>('select email from public.waitlist order by id')).rows.map((r) => r.email);

describe('openWaitlistDb({ dataDir: null, template })', () => {
  it('starts from the dump it is given, migrates it, and later in-memory databases start from it too', async () => {
    // A dump that holds a row, so a database that starts from it can be told from a new one.
    const seeding = await openWaitlistDb({ dataDir: null, migrationsDir: migrations('seeding'), template: await emptyDatabaseDump() });
    await seeding.query(`insert into public.waitlist (email) values ('from.dump@example.com')`);
    const dump = await seeding.dumpDataDir('none');
    await seeding.close();

    const dir = migrations('from-dump');
    // A migration added since the dump was made runs on it.
    fs.writeFileSync(path.join(dir, '99999999999999_later.sql'), 'create table if not exists public.later_table (id int);');
    const first = await openWaitlistDb({ dataDir: null, migrationsDir: dir, template: dump });
    expect(await emails(first)).toEqual(['from.dump@example.com']);
    expect((await first.query(`select to_regclass('public.later_table') as t`)).rows).toEqual([{ t: 'later_table' }]);
    await first.query(`insert into public.waitlist (email) values ('only.in.first@example.com')`);
    await first.close();

    // No template given: this process's copy for these migrations, the dump as given (not what `first` became).
    const second = await openWaitlistDb({ dataDir: null, migrationsDir: dir });
    expect(await emails(second)).toEqual(['from.dump@example.com']);
    await second.close();
  });

  it('keeps the copy it already has for those migrations over a dump given later', async () => {
    const dir = migrations('kept');
    const first = await openWaitlistDb({ dataDir: null, migrationsDir: dir, template: await emptyDatabaseDump() });
    await first.query(`insert into public.waitlist (email) values ('in.other.dump@example.com')`);
    const other = await first.dumpDataDir('none');
    await first.close();
    const second = await openWaitlistDb({ dataDir: null, migrationsDir: dir, template: other });
    expect(await emails(second)).toEqual([]);
    await second.close();
  });
});
