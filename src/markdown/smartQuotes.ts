// Smart punctuation (`smartQuotes: true`): SmartyPants over the rendered HTML, which knows to skip tags and
// the insides of <pre>, <code>, <kbd> and <script>, with Unicode output. marked escapes " and ' in text as
// &quot; and &#39;, which SmartyPants would not see as quotes: they are turned back into characters in text
// only (outside tags, where no escaping is needed), attributes keep theirs.
import { smartypantsu } from 'smartypants';

export function smartQuotes(html: string): string {
  const text = html.replace(/(^|>)([^<]+)/g, (_m, gt: string, run: string) => gt + run.replace(/&quot;/g, '"').replace(/&#39;/g, "'"));
  // "1": quotes, backticks, "--" → em dash, "..." → ellipsis. "2" makes "--" an en dash and "---" an em dash.
  return smartypantsu(text, 2);
}
