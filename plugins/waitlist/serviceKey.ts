// The local service-role key: random per database, created with it, kept beside it in
// `<dataDir>.service-key` (mode 0600), read by `sitegen waitlist export`. A published constant here would
// let any web page the developer visits (or anyone on the LAN) read every local row.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makeFilePrivate } from './privateFile.ts';

export const serviceKeyFile = (dataDir: string) => `${path.resolve(dataDir)}.service-key`;

/** JWT-shaped like a hosted key (supabase-js does not care), with 256 random bits as its signature. */
export function newServiceKey(): string {
  const b64 = (s: string) => Buffer.from(s).toString('base64url');
  return `${b64('{"alg":"HS256","typ":"JWT"}')}.${b64('{"iss":"sitegen-local","role":"service_role"}')}.${crypto.randomBytes(32).toString('base64url')}`;
}

/**
 * The key of the database in dataDir; created when there is none yet (never overwritten). The file is
 * made 0600 every time, also when it was already there with a wider mode (copied, restored, made by hand).
 */
export function ensureServiceKey(dataDir: string): string {
  const file = serviceKeyFile(dataDir);
  const existing = readServiceKey(dataDir);
  if (existing) {
    makeFilePrivate(file);
    return existing;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, newServiceKey() + '\n', { flag: 'wx', mode: 0o600 });
  } catch (e: any) {
    if (e.code !== 'EEXIST') throw e; // another process made it first: use theirs
  }
  makeFilePrivate(file);
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
