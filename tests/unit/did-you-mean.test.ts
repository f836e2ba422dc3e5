// The "Did you mean …?" of unknown names (src/core/didYouMean.ts): a swap of two neighbours is one typo, and
// a tie goes to the name of the same letters.
import { describe, expect, it } from 'vitest';
import { closest } from '../../src/core/didYouMean.ts';

const CONFIG_KEYS = ['site', 'images', 'trailingSlash', 'collections', 'routes', 'validate', 'layout', 'css', 'islandsDir', 'csp', 'notices', 'define', 'aliasPages', 'components', 'plugins'];

describe('closest', () => {
  it('takes a swap of two letters as one typo, before a changed letter', () => {
    expect(closest('cps', CONFIG_KEYS)).toBe('csp');
    expect(closest('csss', CONFIG_KEYS)).toBe('css');
    expect(closest('colections', CONFIG_KEYS)).toBe('collections');
    expect(closest('widhts', ['widths', 'width', 'sizes'])).toBe('widths');
  });
  it('suggests nothing far from every name', () => {
    expect(closest('banana', CONFIG_KEYS)).toBeUndefined();
  });
});
