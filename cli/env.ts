// Reads <root>/.env into process.env (existing variables win), so build-time settings need no shell export.
import fs from 'node:fs';
import path from 'node:path';

export function loadEnvFile(root: string): void {
  const file = path.join(root, '.env');
  if (!fs.existsSync(file)) return;
  try {
    process.loadEnvFile(file);
  } catch (e: any) {
    process.stderr.write(`warning: could not read ${file}: ${e.message}\n`);
  }
}
