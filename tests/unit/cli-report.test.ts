// The terminal's report of errors and warnings (cli/report.ts): a hint is said once for a run of messages
// that share it (ten missing images: one hint, under the first), and again once another hint came between.
import { describe, expect, it } from 'vitest';
import { printMessages } from '../../cli/report.ts';
import { message, fileLocation } from '../../src/core/errors.ts';

describe('printMessages', () => {
  it('says a hint the message before said already only once', () => {
    const at = (line: number) => fileLocation('content/posts/a.md', line, 1, '![x](./gone.jpg)');
    const same = 'Fix the image or its reference at the location shown.';
    const list = [
      message('ImageError', 'The image ./gone.jpg does not exist', at(3), { hint: same }),
      message('ImageError', 'The image ./gone2.jpg does not exist', at(5), { hint: same }),
      message('ContentSchemaError', 'title: Required', at(1), { hint: 'Add a title.' }),
      message('ImageError', 'The image ./gone3.jpg does not exist', at(7), { hint: same }),
    ];
    const lines: string[] = [];
    printMessages(list, 'error', (s) => lines.push(s.replace(/\x1b\[[0-9;]*m/g, '')));
    expect(lines.filter((l) => l.startsWith('  hint:'))).toEqual([`  hint: ${same}`, '  hint: Add a title.', `  hint: ${same}`]);
    expect(lines.filter((l) => l.startsWith('✗'))).toHaveLength(4);
  });
});

describe('a file\'s text in a message never drives the terminal', () => {
  it('the control characters of a content line (an escape sequence, a bell, a bidi override) are shown escaped', async () => {
    const { copyOf } = await import('../helpers/scratch.ts');
    // A title (a list where text goes) that would set the window's title and clear the screen: the error's code
    // frame shows the line as the file has it.
    const line = 'title: ["Alpha \u001b]0;owned\u0007\u001b[2J\u202eok"]';
    const site = await copyOf('basic', { 'content/items/alpha.yaml': `${line}\ntags: [a, b]\nprice: 5\n` });
    try {
      const r = await site.build();
      expect(r.code).toBe(1);
      expect(r.errors[0].location?.file).toBe('content/items/alpha.yaml');
      expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
      expect(r.stderr).toContain('\\x1b]0;owned\\x07\\x1b[2J\\u202eok');
    } finally { site.remove(); }
  });

  it('the caret of a code frame stays under the value at fault when controls before it are shown escaped', async () => {
    const { copyOf } = await import('../helpers/scratch.ts');
    const site = await copyOf('basic', { 'content/items/alpha.yaml': 'title: Alpha\ntags: ["\u001b[2J\u001b]0;pwned\u0007", 5]\nprice: 5\n' });
    try {
      const r = await site.build();
      const lines = r.stderr.split('\n');
      const at = lines.findIndex((l) => l.includes('| tags:'));
      expect(lines[at]).toContain('tags: ["\\x1b[2J\\x1b]0;pwned\\x07", 5]');
      expect(lines[at + 1].indexOf('^')).toBe(lines[at].lastIndexOf('5'));
    } finally { site.remove(); }
  });
});
