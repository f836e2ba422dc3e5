// A merge left half-done shows as conflict markers in a file git still accepts (a Markdown page builds, a
// comment compiles). No tracked text file may hold one: the docs and ARCHITECTURE.md are read by users.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';

const TEXT = /\.(md|ts|tsx|mts|mjs|js|json|css|yaml|yml|html)$/;
const MARKER = /^(<{7}|>{7}) |^={7}$/m;

it('no tracked text file holds a merge conflict marker', () => {
  const files = execFileSync('git', ['ls-files'], { cwd: REPO, encoding: 'utf8' }).split('\n').filter((f) => TEXT.test(f));
  const marked = files.filter((f) => {
    try { return MARKER.test(fs.readFileSync(path.join(REPO, f), 'utf8')); } catch { return false; }
  });
  expect(marked).toEqual([]);
});
