// Schema of content/site.yaml: the facts every page shares (names, addresses, navigation, constants, messages).
import { z } from 'zod';

const text = z.string().trim().min(1, 'Must not be empty');
const email = z.email('Must be an email address');
/** Internal links are site paths; external ones are https URLs. */
const link = z.strictObject({ label: text, href: text.regex(/^(\/|https:\/\/|mailto:)/, 'Must start with "/", "https://" or "mailto:"') });

export const SiteSchema = z.strictObject({
  name: text,
  company: text,
  tagline: text,
  url: z.url(),
  description: text.max(170),
  /** The public launch, "September 2025": the one place the date is written; copy names it as {launch}. */
  launch: text.regex(/^(January|February|March|April|May|June|July|August|September|October|November|December) \d{4}$/, 'Write the launch as month and year, e.g. "September 2025"'),
  /**
   * Each sentence that names the launch, by token name ({launchNote}): `upcoming` may name the date as {launch}
   * or {launchYear}; `passed`, used once the launch month is over, names no date (lib/launch.ts).
   */
  launchWording: z.record(
    z.string().regex(/^launch[A-Z][A-Za-z]*$/, 'Name a launch wording launchSomething, e.g. launchNote'),
    z.strictObject({
      upcoming: text,
      passed: text.refine((s) => !/\{|\b(19|20)\d\d\b/.test(s), 'The wording used after the launch must not name a date or a {token}'),
    }),
  ),
  premiumPrice: text,
  emails: z.strictObject({ info: email, support: email, careers: email, investors: email, privacy: email, studios: email }),
  professionalNetwork: z.strictObject({ label: text, url: z.url() }),
  nav: z.strictObject({
    solutionsLabel: text,
    /** The mobile menu's heading over `links` (they are not solutions). */
    linksLabel: text,
    solutions: z.array(link.extend({ description: text })).length(6),
    links: z.array(link).min(1),
    menuLabel: text,
    /** The header's call to action, on every page. */
    join: text,
  }),
  footer: z.strictObject({
    blurb: text,
    columns: z.array(z.strictObject({ heading: text, links: z.array(link).min(1) })).min(1),
    allPolicies: link,
  }),
  constants: z.strictObject({
    headlineRotationMs: z.number().int().positive(),
    joinedConfirmationMs: z.number().int().positive(),
    dropdownCloseDelayMs: z.number().int().nonnegative(),
    policyLoaderMs: z.number().int().positive(),
    policyPollMs: z.number().int().positive(),
    policyTimeoutMs: z.number().int().positive(),
    policyProgressCap: z.number().min(0).max(100),
    policyProgressStep: z.number().positive(),
    policyProgressStepMs: z.number().int().positive(),
  }),
  supportResponse: z.strictObject({ paid: text, freemium: text }),
  waitlist: z.strictObject({
    label: text,
    placeholder: text,
    button: text,
    shortButton: text,
    submitting: text,
    joined: text,
    note: text,
    /** Shown only without JavaScript, when the form cannot send; followed by the info address. */
    noScript: text,
    /** `invalid`: an address the browser accepts but the waitlist refuses (a@b, x@y.z). */
    messages: z.strictObject({ success: text, duplicate: text, invalid: text, auth: text, generic: text }),
  }),
  /** Labels of the pause/play control of each moving part; each names what it stops. */
  motion: z.strictObject({
    headline: z.strictObject({ pause: text, play: text }),
    logos: z.strictObject({ pause: text, play: text }),
  }),
  notFound: z.strictObject({ title: text, message: text, back: text }),
});

export type Site = z.infer<typeof SiteSchema>;
