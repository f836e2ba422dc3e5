// jsonError: where a JSON text that JSON.parse refused goes wrong, and why, for a located message. V8 names an
// offset for some mistakes only ("Unexpected token ']', "[1, 2,]" is not valid JSON" has none), so the text is
// read again here, once, left to right, with an explicit stack (no recursion: any nesting depth).

export interface JsonError { at: number; reason: string }

const WS = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

/** The offset and reason of the first syntax error of `text` (a text JSON.parse refused). */
export function jsonErrorAt(text: string): JsonError {
  let i = 0;
  const stack: string[] = [];
  const ws = () => { while (i < text.length && WS.has(text[i]!)) i++; };
  const fail = (reason: string, at = i): JsonError => ({ at, reason: i >= text.length && at === i ? `${reason}, but the file ends` : reason });
  const string = (): JsonError | null => {
    const start = i++;
    while (i < text.length) {
      const c = text[i]!;
      if (c === '"') { i++; return null; }
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') { HEX4.lastIndex = i + 2; if (!HEX4.test(text)) return fail('A \\u escape needs four hexadecimal digits'); i += 6; continue; }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) return fail(`"\\${e ?? ''}" is no escape JSON knows`);
        i += 2;
        continue;
      }
      if (c < ' ') return fail(c === '\n' ? 'A string runs to the end of the line: close it with "' : 'A control character in a string (write it as an escape)');
      i++;
    }
    return fail('A string is not closed', start);
  };
  let state: 'value' | 'key' | 'after' = 'value';
  for (;;) {
    ws();
    if (state === 'value') {
      const c = text[i];
      if (c === '{' || c === '[') {
        stack.push(c);
        i++;
        ws();
        if (text[i] === (c === '{' ? '}' : ']')) { stack.pop(); i++; state = 'after'; } else state = c === '{' ? 'key' : 'value';
        continue;
      }
      if (c === '"') { const e = string(); if (e) return e; state = 'after'; continue; }
      if (c === "'") return fail('Strings are written in double quotes in JSON');
      NUMBER.lastIndex = i;
      const num = NUMBER.exec(text);
      if (num && num[0] !== '-') { i += num[0].length; state = 'after'; continue; }
      const word = ['true', 'false', 'null'].find((w) => text.startsWith(w, i));
      if (word) { i += word.length; state = 'after'; continue; }
      return c === ']' || c === '}' ? fail('A comma before the end of a list or map (JSON allows no trailing comma)') : fail('Expected a value (a string in double quotes, a number, true, false, null, a list or a map)');
    }
    if (state === 'key') {
      if (text[i] === '}') return fail('A comma before the end of a map (JSON allows no trailing comma)');
      if (text[i] !== '"') return fail('Expected a property name in double quotes');
      const e = string();
      if (e) return e;
      ws();
      if (text[i] !== ':') return fail('Expected ":" after a property name');
      i++;
      state = 'value';
      continue;
    }
    const top = stack[stack.length - 1];
    if (!top) return i < text.length ? fail('Unexpected text after the JSON value') : fail('Not valid JSON', 0);
    const close = top === '{' ? '}' : ']';
    if (text[i] === ',') { i++; state = top === '{' ? 'key' : 'value'; continue; }
    if (text[i] === close) { stack.pop(); i++; continue; }
    return fail(`Expected "," or "${close}" after a ${top === '{' ? 'property value' : 'list item'}`);
  }
}
