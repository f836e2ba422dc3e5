// The launch-date plugin reads `launch` from its one line of content/site.yaml when that line can stand for
// the file, else from the whole file: the value and where it starts are the same either way.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { launchAt } from '../../plugins/launchDate.ts';
import { REPO } from '../helpers/cli.ts';

/** What a parse of the whole text says. */
function whole(text: string): { launch: string | null; offset: number } {
  const node = parseDocument(text).get('launch', true) as { value?: unknown; range?: [number, number, number] } | undefined;
  return { launch: typeof node?.value === 'string' ? node.value : null, offset: node?.range?.[0] ?? 0 };
}

const site = fs.readFileSync(path.join(REPO, 'content/site.yaml'), 'utf8');

describe('the launch value of site.yaml', () => {
  it.each([
    ['the real site.yaml', site],
    ['with Windows line ends', site.replace(/\n/g, '\r\n')],
    ['quoted, with a comment after it', 'title: T\nlaunch: "October 2030"  # the month\nother: x\n'],
    ['a value that goes on over the next lines', 'title: T\nlaunch: October\n  2030\nother: x\n'],
    ['the value on the next line', 'title: T\nlaunch:\n  October 2030\n'],
    ['the key quoted', 'title: T\n"launch": October 2030\n'],
    ['in a second document', 'title: T\n---\nlaunch: October 2030\n'],
    ['only nested under another key', 'title: T\nmore:\n  launch: October 2030\n'],
    ['written twice', 'launch: October 2030\nlaunch: May 2031\n'],
    ['not a string', 'launch: 2030\n'],
    ['missing', 'title: T\n'],
  ])('%s', (_what, text) => {
    expect(launchAt(text)).toEqual(whole(text));
  });
});
