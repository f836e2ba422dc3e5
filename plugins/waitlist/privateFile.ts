// Files only their owner may read (mode 0600): the service-role key, `waitlist export -o`, server.json.
// `writeFileSync(file, text, { mode })` applies the mode only when it creates the file, so a file that
// already existed with 0644 kept it; these helpers set 0600 on every write, whatever was there before.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const PRIVATE_MODE = 0o600;

/**
 * Writes text to file, readable by its owner only. A regular file (or a path not there yet) is replaced
 * whole: the text goes to a new 0600 file beside it, which is renamed over it, so a reader never sees it
 * half-written and it never sits under the old mode. Anything else that is already there (a device such
 * as /dev/stdout, a named pipe) is written through and its mode left alone: it is not ours to change.
 */
export function writePrivateFile(file: string, text: string): void {
  let existing: fs.Stats | null = null;
  try {
    existing = fs.statSync(file);
  } catch (e: any) {
    if (e?.code !== 'ENOENT') throw e;
  }
  if (existing && !existing.isFile()) {
    fs.writeFileSync(file, text);
    return;
  }
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${crypto.randomBytes(6).toString('hex')}.tmp`);
  const fd = fs.openSync(tmp, 'wx', PRIVATE_MODE);
  try {
    try {
      fs.fchmodSync(fd, PRIVATE_MODE); // the umask may have taken bits off: exactly 0600
      fs.writeFileSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/** Sets 0600 on an existing regular file through an open descriptor (never a path looked up twice). */
export function makeFilePrivate(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    const stat = fs.fstatSync(fd);
    if (stat.isFile() && (stat.mode & 0o777) !== PRIVATE_MODE) fs.fchmodSync(fd, PRIVATE_MODE);
  } finally {
    fs.closeSync(fd);
  }
}
