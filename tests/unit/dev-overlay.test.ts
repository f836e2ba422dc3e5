// What the dev overlay shows of a problem: the message (its field first) as text that wraps, the source line
// with its caret, and the notes. A long line starts a little before the caret, so that a phone's narrow
// panel shows the place and not only the line's first words (the message was once a line of a <pre>, cut off).
import { describe, expect, it } from 'vitest';
import { overlayErrors } from '../../src/dev/events.ts';
import type { Message } from '../../src/core/types.ts';

const at = (lineText: string, column: number, extra: Partial<Message> = {}): Message => ({
  id: 'TemplateTagInMarkdown', text: 'A Hugo shortcode is not run', location: { file: 'content/posts/a.md', line: 12, column, lineText }, notes: [], ...extra,
});
/** The character the caret points at. */
const pointed = (code: string) => { const [line, caret] = code.split('\n'); return line![caret!.indexOf('^')]; };

describe('the dev overlay', () => {
  it('shows a short line whole, with the caret under the column', () => {
    const [e] = overlayErrors([at('price: three', 8, { field: 'price', text: 'Expected number, received string "three"', id: 'ContentSchemaError' })]);
    expect(e!.message).toBe('price: Expected number, received string "three"');
    expect(e!.code).toBe('12 | price: three\n   |        ^');
    expect(pointed(e!.code)).toBe('t');
    expect(e!.title).toBe('Content does not match its schema');
  });

  it('starts a long line a little before the caret, still under the same character', () => {
    const line = `${'word '.repeat(40)}{{< youtube id >}} and more text after it`;
    const column = line.indexOf('{{<') + 1;
    const [e] = overlayErrors([at(line, column)]);
    const [shown, caret] = e!.code.split('\n');
    expect(shown!.startsWith('12 | …')).toBe(true);
    expect(shown).toContain('{{< youtube id >}} and more text after it');
    expect(caret!.indexOf('^')).toBeLessThan(40);
    expect(pointed(e!.code)).toBe('{');
    // A long line whose column is near its start is shown from its start.
    expect(overlayErrors([at(line, 3)])[0]!.code.startsWith('12 | word')).toBe(true);
  });

  it('has no source part without a line, and lists the notes with their places', () => {
    const [e] = overlayErrors([{ id: 'ConfigError', text: 'site.url is not a URL', location: null, notes: [{ text: 'set here', location: { file: 'sitegen.config.ts', line: 4, column: 3, lineText: '' } }] }]);
    expect(e!.code).toBe('');
    expect(e!.notes).toEqual(['sitegen.config.ts:4:3 set here']);
  });
});
