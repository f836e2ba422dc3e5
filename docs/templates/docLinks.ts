// The pages link each other as files (`outputs.md#base-path`), so they read on GitHub too; on the site those
// links become page URLs (`/outputs/#base-path`, under the base). Only a relative link to a sibling `.md` file
// is rewritten; the link check then checks the page URL and its fragment.
import type { SitegenPlugin } from 'sitegen-islands';
import { href } from 'sitegen-islands';

const SIBLING = /^([a-z0-9-]+)\.md(#[\w-]*)?$/;

export function docLinks(): SitegenPlugin {
  return {
    name: 'doc-links',
    markdown: [{
      walkTokens(token) {
        if (token.type !== 'link') return;
        const m = SIBLING.exec(token.href);
        if (!m) return;
        const page = m[1] === 'getting-started' ? '/' : `/${m[1]}/`;
        token.href = href(page) + (m[2] ?? '');
      },
    }],
  };
}
