// urlScheme: the scheme a browser will see in a link or image target that Markdown copies into an
// attribute. marked passes character references through (`javascript&#58;alert(1)` comes out as
// href="javascript&#58;alert(1)"), and the browser decodes them, drops tabs and newlines anywhere in a URL,
// trims leading control characters and spaces, and ignores case. So the policy checks what the browser
// will run, not what the author typed.

/**
 * The named references that can change a URL's scheme: the ones for ":", "+", "." and the characters a
 * URL parser removes. No named reference stands for an ASCII letter or digit, and a named reference
 * needs its ";" in an attribute (only legacy ones like &amp may go without, and none of those matter here).
 */
const NAMED: Record<string, string> = { colon: ':', Tab: '\t', NewLine: '\n', plus: '+', period: '.' };

/** Decodes character references the way an HTML attribute value does, as far as a URL's scheme can tell. */
export function decodeReferences(s: string): string {
  return s.replace(/&(?:#[xX]([0-9a-fA-F]+);?|#([0-9]+);?|([A-Za-z][A-Za-z0-9]*);)/g, (m, hex?: string, dec?: string, name?: string) => {
    if (name !== undefined) return Object.hasOwn(NAMED, name) ? NAMED[name] : m;
    const code = hex !== undefined ? parseInt(hex, 16) : parseInt(dec!, 10);
    // What a browser does with NUL, surrogates and out-of-range numbers: U+FFFD, never a scheme character.
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\uFFFD';
  });
}

/** The target's scheme as a browser reads it, lower case ("javascript"), or '' when it has none. */
export function schemeOf(target: string): string {
  // eslint-disable-next-line no-control-regex
  const url = decodeReferences(target).replace(/^[\u0000-\u0020]+/, '').replace(/[\t\n\r]/g, '');
  const m = /^([^:/?#]*):/.exec(url);
  return m ? m[1].toLowerCase() : '';
}

const UNSAFE = new Set(['javascript', 'vbscript', 'data']);

/**
 * The unsafe scheme a target would run as (javascript, vbscript, data), or null when it is safe. A named
 * reference not in NAMED leaves "&" or a non-ASCII character in the scheme, which makes it no scheme at all:
 * the browser reads such a target as a relative path.
 */
export function unsafeScheme(target: string): string | null {
  const scheme = schemeOf(target);
  return UNSAFE.has(scheme) ? scheme : null;
}
