// The local service-role key: random per database, created with it, kept beside it in
// `<dataDir>.service-key` (mode 0600), read by `sitegen waitlist export`. A published constant here would
// let any web page the developer visits (or anyone on the LAN) read every local row.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const serviceKeyFile = (dataDir: string) => `${path.resolve(dataDir)}.service-key`;

/** JWT-shaped like a hosted key (supabase-js does not care), with 256 random bits as its signature. */
export function newServiceKey(): string {
  const b64 = (s: string) => Buffer.from(s).toString('base64url');
  return `${b64('{"alg":"HS256","typ":"JWT"}')}.${b64('{"iss":"sitegen-local","role":"service_role"}')}.${crypto.randomBytes(32).toString('base64url')}`;
}

/** The key of the database in dataDir; created (0600, never overwritten) when there is none yet. */
export function ensureServiceKey(dataDir: string): string {
  const file = serviceKeyFile(dataDir);
  const existing = readServiceKey(dataDir);
  if (existing) return existing;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, newServiceKey() + '\n', { flag: 'wx', mode: 0o600 });
  } catch (e: any) {
    if (e.code !== 'EEXIST') throw e; // another process made it first: use theirs
  }
  fs.chmodSync(file, 0o600);
  return readServiceKey(dataDir)!;
}

export function readServiceKey(dataDir: string): string | null {
  try {
    const key = fs.readFileSync(serviceKeyFile(dataDir), 'utf8').trim();
    return key || null;
  } catch {
    return null;
  }
}
