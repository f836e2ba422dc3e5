// The pages link each other as files (`outputs.md#base-path`), so they read on GitHub too; on the site those
// links become page URLs. Every Markdown page is served one folder deep (`/outputs/`), so the link is written
// relative (`../outputs/#base-path`) and works under any base. Only a link to a sibling `.md` file is
// rewritten; the link check then checks the page URL and its fragment.
import type { SitegenPlugin } from 'sitegen-islands';

const SIBLING = /^([a-z0-9-]+)\.md(#[\w-]*)?$/;

export function docLinks(): SitegenPlugin {
  return {
    name: 'doc-links',
    markdown: [{
      walkTokens(token) {
        if (token.type !== 'link') return;
        const m = SIBLING.exec(token.href);
        if (!m) return;
        token.href = `../${m[1]}/${m[2] ?? ''}`;
      },
    }],
  };
}
