// Page group "legal": /legal (policy summaries), /refund-policy, /uae-pdpl (English/Arabic) and the five
// policies (/terms, /privacy, /cookies, /app-privacy, /acceptable-use), published from
// content/legal/policies.yaml. A third-party policy host, when one is configured, is shown under a
// policy's text and allowed in that page's CSP only. Copy lives in content/legal/; facts in site.yaml.
import { launchTokens } from '../lib/launch.ts';
import { defineRoutes, type CollectionConfig, type Content, type ContentIssue, type RouteDef } from 'sitegen-islands';
import type { Site } from '../schemas/site.ts';
import { LegalIndexSchema, PoliciesSchema, RefundPolicySchema, UaePdplSchema, type LegalIndex, type Policies, type RefundPolicy, type UaePdpl } from '../schemas/legal.ts';
import { fillTokens, unknownTokens, type TokenValues } from '../pages/legal/tokens.ts';
import { LegalIndexPage } from '../pages/legal/LegalIndex.tsx';
import { RefundPolicyPage } from '../pages/legal/RefundPolicy.tsx';
import { UaePdplPage } from '../pages/legal/UaePdpl.tsx';
import { PolicyPage } from '../pages/legal/PolicyPage.tsx';
import type { PdplDoc, PdplDocumentProps, PdplLang } from '../islands/PdplDocument.tsx';

const FILES = {
  index: 'content/legal/legal.yaml',
  refund: 'content/legal/refund-policy.yaml',
  pdpl: 'content/legal/uae-pdpl.yaml',
  policies: 'content/legal/policies.yaml',
} as const;

export const collections: Record<string, CollectionConfig> = {
  legalIndex: { pattern: 'legal/legal.yaml', schema: LegalIndexSchema, single: true },
  legalRefund: { pattern: 'legal/refund-policy.yaml', schema: RefundPolicySchema, single: true },
  legalPdpl: { pattern: 'legal/uae-pdpl.yaml', schema: UaePdplSchema, single: true },
  legalPolicies: { pattern: 'legal/policies.yaml', schema: PoliciesSchema, single: true },
};

export const REFUND_PATH = '/refund-policy';
export const PDPL_PATH = '/uae-pdpl';
export const policyPath = (id: string) => `/${id}`;

/**
 * The optional third-party policy host: POLICY_HOST (an https origin) when set, else `embed.host` in
 * policies.yaml; "" means none. Only the five policy pages load it, and only they allow it in their CSP.
 */
export function policyHost(policies: Policies, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.POLICY_HOST?.trim();
  return (fromEnv || policies.embed.host).replace(/\/$/, '');
}

/** Facts every legal page may name as {token}. */
function sharedTokens(site: Site): TokenValues {
  return { name: site.name, company: site.company, ...launchTokens(site), supportEmail: site.emails.support, privacyEmail: site.emails.privacy, infoEmail: site.emails.info };
}
const refundTokens = (site: Site, r: RefundPolicy): TokenValues => ({ ...sharedTokens(site), effective: r.effective, governingLaw: r.governingLaw });
const pdplTokens = (site: Site, d: UaePdpl): TokenValues => ({ ...sharedTokens(site), version: d.version, ...d.facts });
/** Policy text may also name support times and the security and privacy figures stated elsewhere. */
const policyTokens = (site: Site, refund: RefundPolicy, pdpl: UaePdpl): TokenValues => ({
  ...sharedTokens(site), paidResponse: site.supportResponse.paid, freemiumResponse: site.supportResponse.freemium,
  governingLaw: refund.governingLaw, ...pdpl.facts,
});

/**
 * Builds each language's document, filling tokens per language. In Arabic every filled-in value is wrapped
 * in Unicode isolates (FSI…PDI): a Latin name ending in a period, such as "Inc.", would otherwise have
 * the period pulled to the wrong side by the right-to-left text around it.
 */
function pdplProps(d: UaePdpl, vars: TokenValues): PdplDocumentProps {
  const isolated = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, `\u2068${v}\u2069`]));
  const doc = (lang: PdplLang): PdplDoc => fillTokens({
    ...d.ui[lang],
    status: d.status.map((s) => ({ label: s.label[lang], state: s.state, stateLabel: d.stateLabels[s.state][lang] })),
    sections: d.sections.map((s) => s[lang]),
  }, lang === 'ar' ? isolated : vars);
  return { version: d.version, languages: d.languages, docs: { en: doc('en'), ar: doc('ar') } };
}

export function validate(content: Content): ContentIssue[] {
  const site = content.site as Site | undefined;
  const index = content.legalIndex as LegalIndex | undefined;
  const refund = content.legalRefund as RefundPolicy | undefined;
  const pdpl = content.legalPdpl as UaePdpl | undefined;
  const policies = content.legalPolicies as Policies | undefined;
  if (!site || !index || !refund || !pdpl || !policies) return []; // the loader already reported what is missing
  const issues: ContentIssue[] = [];
  const tokenIssues = (file: string, value: unknown, vars: TokenValues) =>
    unknownTokens(value, vars).forEach((u) => issues.push({ file, path: u.path, message: `Unknown placeholder ${u.token}; known: ${Object.keys(vars).join(', ')}` }));
  tokenIssues(FILES.index, index, sharedTokens(site));
  tokenIssues(FILES.refund, refund, refundTokens(site, refund));
  tokenIssues(FILES.pdpl, pdpl, pdplTokens(site, pdpl));
  tokenIssues(FILES.policies, policies, { ...policyTokens(site, refund, pdpl), title: '', id: '', lang: '' });

  // The schema measured descriptions with their {tokens}; measure what the page will actually carry.
  const described: [string, (string | number)[], string, TokenValues][] = [
    [FILES.index, ['description'], index.description, sharedTokens(site)],
    [FILES.refund, ['description'], refund.description, refundTokens(site, refund)],
    [FILES.pdpl, ['description'], pdpl.description, pdplTokens(site, pdpl)],
    ...policies.pages.map((p, i): [string, (string | number)[], string, TokenValues] => [FILES.policies, ['pages', i, 'description'], p.description, policyTokens(site, refund, pdpl)]),
  ];
  for (const [file, path, raw, vars] of described) {
    const n = fillTokens(raw, vars).length;
    if (n < 50 || n > 160) issues.push({ file, path, message: `With placeholders filled in, the description has ${n} characters; keep it between 50 and 160` });
  }

  // /legal must summarize every legal page, once each.
  const legalPaths = [REFUND_PATH, PDPL_PATH, ...policies.pages.map((p) => policyPath(p.id))];
  index.policies.forEach((p, i) => {
    if (!legalPaths.includes(p.href)) issues.push({ file: FILES.index, path: ['policies', i, 'href'], message: `"${p.href}" is not a legal page; expected one of ${legalPaths.join(', ')}` });
    if (index.policies.findIndex((q) => q.href === p.href) !== i) issues.push({ file: FILES.index, path: ['policies', i, 'href'], message: `"${p.href}" is listed twice` });
  });
  for (const path of legalPaths) {
    if (!index.policies.some((p) => p.href === path)) issues.push({ file: FILES.index, path: ['policies'], message: `Missing a summary of ${path}` });
  }
  policies.pages.forEach((p, i) => {
    if (policies.pages.findIndex((q) => q.id === p.id) !== i) issues.push({ file: FILES.policies, path: ['pages', i, 'id'], message: `Document id "${p.id}" is used twice` });
  });
  return issues;
}

export function routes(content: Content): RouteDef[] {
  const site = content.site as Site;
  const shared = sharedTokens(site);
  const index = fillTokens(content.legalIndex as LegalIndex, shared);
  const rawRefund = content.legalRefund as RefundPolicy;
  const refund = fillTokens(rawRefund, refundTokens(site, rawRefund));
  const pdpl = content.legalPdpl as UaePdpl;
  const pdplVars = pdplTokens(site, pdpl);
  const policies = content.legalPolicies as Policies;
  const c = site.constants;
  const timing = { loaderMs: c.policyLoaderMs, pollMs: c.policyPollMs, timeoutMs: c.policyTimeoutMs, cap: c.policyProgressCap, step: c.policyProgressStep, stepMs: c.policyProgressStepMs };
  const { embed } = policies;
  const host = policyHost(policies);
  const facts = policyTokens(site, rawRefund, pdpl);

  const policyRoutes = policies.pages.map((raw) => {
    const p = fillTokens(raw, facts);
    const labels = fillTokens({ ...policies.labels, updated: policies.updatedLabel, contents: policies.contentsLabel }, { ...facts, title: p.title });
    const fill = (u: string) => host + u.replaceAll('{id}', encodeURIComponent(p.id)).replaceAll('{lang}', encodeURIComponent(embed.language));
    return {
      path: policyPath(p.id), component: PolicyPage, title: p.title, description: p.description, source: FILES.policies,
      // The host's script runs on this page and may render the document in a frame of its own origin.
      csp: host ? { 'script-src': [host], 'frame-src': [host] } : undefined,
      props: {
        policy: { id: p.id, heading: p.heading, intro: p.intro, updated: p.updated, sections: p.sections },
        labels: { updated: labels.updated, contents: labels.contents, embedHeading: labels.heading },
        embed: host ? {
          id: p.id, language: embed.language, scriptUrl: fill(embed.scriptPath), documentUrl: fill(embed.documentPath), timing,
          labels: { viewer: labels.viewer, loading: labels.loading, progress: labels.progress, fallbackLead: labels.fallbackLead, fallbackLink: labels.fallbackLink, failed: labels.failed },
        } : null,
      },
    };
  });
  // defineRoutes checks each route's props against its page component.
  return defineRoutes([
    { path: '/legal', component: LegalIndexPage, title: index.title, description: index.description, source: FILES.index, props: { page: index } },
    {
      path: REFUND_PATH, component: RefundPolicyPage, title: refund.title, description: refund.description, source: FILES.refund,
      props: { policy: refund },
    },
    { path: PDPL_PATH, component: UaePdplPage, title: pdpl.title, description: fillTokens(pdpl.description, pdplVars), source: FILES.pdpl, props: pdplProps(pdpl, pdplVars) },
    ...policyRoutes,
  ]);
}
