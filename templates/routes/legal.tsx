// Page group "legal": /legal (policy summaries), /refund-policy, /uae-pdpl (English/Arabic) and the five
// pages that embed a document from the third-party policy host (/terms, /privacy, /cookies,
// /app-privacy, /acceptable-use). Copy lives in content/legal/; shared facts and timings in site.yaml.
// Also exports `csp`: the policy host's origin, read from content/legal/policies.yaml.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import type { CollectionConfig, Content, ContentIssue, RouteDef } from 'sitegen';
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

/** The site root: the nearest folder above this module (or the engine's compiled copy of it) with the config. */
function siteRoot(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'sitegen.config.ts')) && fs.existsSync(path.join(dir, FILES.policies))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

/**
 * The config needs the CSP when it is imported, before content is loaded, so the policy host's origin is
 * read straight from policies.yaml: changing `scriptUrl` there is the only edit a new host needs.
 * A broken file yields no CSP additions; content validation reports the problem itself.
 */
function policyHostOrigin(): string | null {
  try {
    const raw = parseYaml(fs.readFileSync(path.join(siteRoot(), FILES.policies), 'utf8'));
    return new URL(PoliciesSchema.parse(raw).embed.scriptUrl).origin;
  } catch {
    return null;
  }
}

const POLICY_ORIGIN = policyHostOrigin();
/** The host's script runs on the page and may render the document in a frame of its own origin; nothing broader. */
export const csp: Record<string, string[]> = POLICY_ORIGIN ? { 'script-src': [POLICY_ORIGIN], 'frame-src': [POLICY_ORIGIN] } : {};

/** Facts every legal page may name as {token}. */
function sharedTokens(site: Site): TokenValues {
  return { name: site.name, company: site.company, launch: site.launch, supportEmail: site.emails.support, privacyEmail: site.emails.privacy, infoEmail: site.emails.info };
}
const refundTokens = (site: Site, r: RefundPolicy): TokenValues => ({ ...sharedTokens(site), effective: r.effective, governingLaw: r.governingLaw });
const pdplTokens = (site: Site, d: UaePdpl): TokenValues => ({ ...sharedTokens(site), version: d.version, ...d.facts });
/** Per policy page, labels may also name the page's {title}. */
const policyTokens = (site: Site, title: string): TokenValues => ({ ...sharedTokens(site), title });

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
    unknownTokens(value, vars).forEach((u) => issues.push({ file, path: u.path, message: `Unknown placeholder {${u.token}}; known: ${Object.keys(vars).join(', ')}` }));
  tokenIssues(FILES.index, index, sharedTokens(site));
  tokenIssues(FILES.refund, refund, refundTokens(site, refund));
  tokenIssues(FILES.pdpl, pdpl, pdplTokens(site, pdpl));
  tokenIssues(FILES.policies, policies, { ...policyTokens(site, ''), id: '', lang: '' });

  // The schema measured descriptions with their {tokens}; measure what the page will actually carry.
  const described: [string, (string | number)[], string, TokenValues][] = [
    [FILES.index, ['description'], index.description, sharedTokens(site)],
    [FILES.refund, ['description'], refund.description, refundTokens(site, refund)],
    [FILES.pdpl, ['description'], pdpl.description, pdplTokens(site, pdpl)],
    ...policies.pages.map((p, i): [string, (string | number)[], string, TokenValues] => [FILES.policies, ['pages', i, 'description'], p.description, sharedTokens(site)]),
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
  const origin = new URL(policies.embed.scriptUrl).origin;
  if (origin !== POLICY_ORIGIN) issues.push({ file: FILES.policies, path: ['embed', 'scriptUrl'], message: `The CSP allows ${POLICY_ORIGIN ?? 'no policy host'} but the script is on ${origin}; rebuild so the CSP is read again` });
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

  const policyRoutes: RouteDef[] = policies.pages.map((raw) => {
    const p = fillTokens(raw, shared);
    return {
      path: policyPath(p.id), component: PolicyPage, title: p.title, description: p.description, source: FILES.policies,
      props: {
        heading: p.heading,
        intro: p.intro,
        embed: {
          id: p.id, language: embed.language, scriptUrl: embed.scriptUrl, timing,
          documentUrl: embed.documentUrl.replaceAll('{id}', encodeURIComponent(p.id)).replaceAll('{lang}', encodeURIComponent(embed.language)),
          labels: fillTokens(policies.labels, policyTokens(site, p.title)),
        },
      },
    };
  });
  return [
    { path: '/legal', component: LegalIndexPage, title: index.title, description: index.description, source: FILES.index, props: { page: index } },
    {
      path: REFUND_PATH, component: RefundPolicyPage, title: refund.title, description: refund.description, source: FILES.refund,
      props: { policy: refund },
    },
    { path: PDPL_PATH, component: UaePdplPage, title: pdpl.title, description: fillTokens(pdpl.description, pdplVars), source: FILES.pdpl, props: pdplProps(pdpl, pdplVars) },
    ...policyRoutes,
  ];
}
