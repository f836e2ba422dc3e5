// The facts from content/site.yaml that copy names as {tokens}, so a launch date, price or response time is
// written once and every page that mentions it stays in step. The token rule itself (own properties only,
// values HTML-escaped into rendered Markdown, unknown tokens reported) is templates/lib/tokens.ts.
import type { Site } from '../../schemas/site.ts';
import { launchTokens } from '../../lib/launch.ts';

/** The facts copy may refer to, by token name. */
export function factsOf(site: Site): Record<string, string> {
  return {
    name: site.name,
    company: site.company,
    ...launchTokens(site),
    premiumPrice: site.premiumPrice,
    supportPaid: site.supportResponse.paid,
    supportFreemium: site.supportResponse.freemium,
  };
}

/** The same rule as every token (templates/lib/tokens.ts), under the names the company pages use. */
export { fillTokens as fillFacts, fillTokensHtml as fillFactsHtml, unknownTokens } from '../../lib/tokens.ts';
