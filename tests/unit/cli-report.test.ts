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
