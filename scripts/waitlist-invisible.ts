// Writes the migration that carries the waitlist's invisible-character set into the database, derived from
// Unicode properties (plugins/waitlist/invisible.ts). Run: npx tsx scripts/waitlist-invisible.ts [name.sql]
// An applied migration is never rewritten: when the set changes, give a NEW file name (a later timestamp)
// and point INVISIBLE_MIGRATION at it.
import fs from 'node:fs';
import path from 'node:path';
import { INVISIBLE_MIGRATION, invisibleMigrationSql } from '../plugins/waitlist/invisible.ts';

const name = process.argv[2] ?? INVISIBLE_MIGRATION;
const file = path.resolve(import.meta.dirname, '../supabase/migrations', name);
fs.writeFileSync(file, invisibleMigrationSql());
process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
