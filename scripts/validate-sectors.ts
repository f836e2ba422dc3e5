// Helper for content authors: validates every sector file against the schema and prints problems.
// Usage: npx tsx scripts/validate-sectors.ts [area]
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { SectorSchema } from '../templates/schemas/sector.ts';

const areas = process.argv[2] ? [process.argv[2]] : ['online', 'hybrid', 'brick-and-mortar'];
let bad = 0;
for (const area of areas) {
  const dir = path.join('content/sectors', area);
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.yaml')) : [];
  for (const f of files) {
    const r = SectorSchema.safeParse(YAML.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
    if (!r.success) { bad++; for (const i of r.error.issues) console.log(`${dir}/${f} ${i.path.join('.')}: ${i.message}`); }
  }
  console.log(`${area}: ${files.length} files`);
}
process.exit(bad ? 1 : 0);
