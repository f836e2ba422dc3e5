// Schemas of content/legal/: the /legal index, the refund policy, the UAE PDPL statement (English and
// Arabic) and the five policies (terms, privacy, cookies, app privacy, acceptable use), published as pages,
// with an optional third-party policy host shown beside them.
// Copy may name shared facts as {tokens} (e.g. {company}, {supportEmail}); routes() fills them in.
import { z } from 'zod';

const text = z.string().trim().min(1, 'Must not be empty');
/** Search engines show roughly 50-160 characters; shorter or longer descriptions get rewritten. */
const metaDescription = text.min(50, 'Meta descriptions need at least 50 characters').max(160, 'Meta descriptions are cut after 160 characters');
const sitePath = text.regex(/^\/[a-z0-9/-]*$/, 'Must be a site path such as "/terms"');
const httpsUrl = z.url({ protocol: /^https$/, error: 'Must be an https:// URL' });
const paragraphs = z.array(text).min(1);
const page = { title: text, description: metaDescription, heading: text, intro: text };

export const LegalIndexSchema = z.strictObject({
  ...page,
  listHeading: text,
  policies: z.array(z.strictObject({ href: sitePath, title: text, summary: text })).length(7),
  notice: text,
});

export const KEY_TERMS_TITLE = 'Key Terms';
export const KEY_TERMS_INDEX = 8; // section 9, counted from zero

const refundSection = z.strictObject({
  title: text,
  paragraphs,
  items: z.array(text).min(1).optional(),
  /** Definitions; only the Key Terms section has them. */
  terms: z.array(z.strictObject({ term: text, definition: text })).min(1).optional(),
});

export const RefundPolicySchema = z.strictObject({
  ...page,
  effectiveLabel: text,
  effective: text.regex(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/, 'Write the date as "August 14, 2025"'),
  governingLaw: text,
  contentsLabel: text,
  sections: z.array(refundSection).length(12, 'The refund policy has exactly 12 sections').superRefine((list, ctx) => {
    const keyTerms = list[KEY_TERMS_INDEX];
    if (keyTerms && keyTerms.title !== KEY_TERMS_TITLE) ctx.addIssue({ code: 'custom', path: [KEY_TERMS_INDEX, 'title'], message: `Section 9 must be titled "${KEY_TERMS_TITLE}"` });
    if (keyTerms && !keyTerms.terms) ctx.addIssue({ code: 'custom', path: [KEY_TERMS_INDEX], message: 'Section 9 must define its terms under "terms"' });
    list.forEach((s, i) => {
      if (s.terms && i !== KEY_TERMS_INDEX) ctx.addIssue({ code: 'custom', path: [i, 'terms'], message: 'Only section 9 (Key Terms) defines terms' });
    });
  }),
});

/** One piece of copy in both languages of the PDPL statement. */
const bilingual = <T extends z.ZodType>(inner: T) => z.strictObject({ en: inner, ar: inner });
export const PDPL_STATES = ['complete', 'in-progress', 'planned'] as const;

export const UaePdplSchema = z.strictObject({
  title: text,
  description: metaDescription,
  version: text.regex(/^\d+\.\d+$/, 'Write the version as "1.0"'),
  facts: z.strictObject({
    dpoResponseDays: z.number().int().positive(),
    breachNotificationHours: z.number().int().positive(),
    encryptionAtRest: text,
    encryptionInTransit: text,
  }),
  languages: z.strictObject({ en: text, ar: text }),
  ui: bilingual(z.strictObject({ heading: text, intro: text, languageLabel: text, versionLabel: text, statusHeading: text, contentsLabel: text })),
  stateLabels: z.strictObject({ complete: bilingual(text), 'in-progress': bilingual(text), planned: bilingual(text) }),
  status: z.array(z.strictObject({ label: bilingual(text), state: z.enum(PDPL_STATES) })).min(3),
  sections: z.array(bilingual(z.strictObject({ title: text, paragraphs }))).length(10, 'The PDPL statement has exactly 10 sections'),
});

/** One section of a policy page: paragraphs, optionally followed by a list. */
const policySection = z.strictObject({ title: text, paragraphs, items: z.array(text).min(1).optional() });
const originOrEmpty = z.union([z.literal(''), z.url({ protocol: /^https$/, error: 'Must be an https:// origin such as "https://policies.example.com", or "" for none' })
  .refine((u) => new URL(u).origin === u.replace(/\/$/, ''), 'Must be an origin only, without a path')]);

export const PoliciesSchema = z.strictObject({
  /** The optional third-party policy host; with host "" (the default) no page loads anything from it. */
  embed: z.strictObject({
    host: originOrEmpty,
    /** The host's embed script, below the host. */
    scriptPath: text.regex(/^\//, 'Must start with "/"'),
    /** The hosted document, for visitors without JavaScript or when the script is blocked; {id} and {lang} are filled in. */
    documentPath: text.regex(/^\//, 'Must start with "/"').refine((u) => u.includes('{id}'), 'Must contain {id} where the document id goes'),
    language: text.regex(/^[a-z]{2}-[a-z]{2}$/, 'A language tag such as "en-us"'),
  }),
  labels: z.strictObject({
    viewer: text,
    loading: text,
    progress: text,
    heading: text,
    fallbackLead: text,
    fallbackLink: text,
    failed: text,
  }),
  updatedLabel: text,
  contentsLabel: text,
  pages: z.array(z.strictObject({
    id: text.regex(/^[a-z][a-z-]*$/, 'Lower-case letters and dashes'),
    ...page,
    updated: text.regex(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/, 'Write the date as "November 1, 2026"'),
    sections: z.array(policySection).min(3, 'A policy needs at least 3 sections'),
  })).length(5),
});

export type LegalIndex = z.infer<typeof LegalIndexSchema>;
export type RefundPolicy = z.infer<typeof RefundPolicySchema>;
export type UaePdpl = z.infer<typeof UaePdplSchema>;
export type PdplState = (typeof PDPL_STATES)[number];
export type Policies = z.infer<typeof PoliciesSchema>;
