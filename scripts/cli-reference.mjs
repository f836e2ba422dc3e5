// Writes docs/content/cli-reference.md from the commands' own definitions: the help that `sitegen <command>
// --help` prints (commander makes it from each command's options and descriptions). `npm test` fails when
// the page and the commands differ (tests/unit/cli-reference.test.ts); run `node scripts/cli-reference.mjs`
// after changing a command.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const PAGE = path.join(REPO, 'docs/content/cli-reference.md');
const COMMANDS = ['build', 'check', 'dev', 'preview', 'init', 'prepare', 'clean'];

// Run outside any site: the help of a folder with a site lists that site's plugin commands too.
let away;
function help(args) {
  const r = spawnSync(process.execPath, [path.join(REPO, 'bin/sitegen.js'), ...args, '--help'], { cwd: away, encoding: 'utf8', env: { ...process.env, COLUMNS: '100', NO_COLOR: '1' } });
  if (r.status !== 0) throw new Error(`sitegen ${args.join(' ')} --help exited ${r.status}: ${r.stderr}`);
  return r.stdout.trimEnd();
}

export function cliReference() {
  away = fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-cli-reference-'));
  try { return reference(); } finally { fs.rmSync(away, { recursive: true, force: true }); }
}

function reference() {
  const parts = [
    '---',
    'title: "CLI reference"',
    'description: "Every command and option of sitegen, as its --help prints them."',
    'order: 14',
    '---',
    '',
    'Generated from the commands\' own definitions (`node scripts/cli-reference.mjs`); the',
    '[Command line](cli.md) page explains what each command does.',
    '',
    '## sitegen',
    '',
    '```text',
    help([]),
    '```',
  ];
  for (const c of COMMANDS) parts.push('', `## sitegen ${c}`, '', '```text', help([c]), '```');
  return parts.join('\n') + '\n';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(PAGE, cliReference());
  console.log(`wrote ${path.relative(process.cwd(), PAGE)}`);
}
