// Schemas of the core marketing pages: home, /for-consumers, the three area pages, the logo marquee.
import { z } from 'zod';

const text = z.string().trim().min(1, 'Must not be empty');
const item = z.strictObject({ title: text, text: text });
const stat = z.strictObject({ value: text, label: text });
const cta = z.strictObject({ heading: text, text: text });

export const HomeSchema = z.strictObject({
  title: text,
  description: text.max(170),
  badge: text,
  headlinePrefix: text,
  /** The words the headline rotates through; the first is the one in the HTML. */
  rotatingWords: z.array(text).min(2),
  subtitle: text,
  chips: z.array(text).length(3),
  stepsHeading: text,
  steps: z.array(item).length(3),
  statsHeading: text,
  stats: z.array(stat).length(4),
  /**
   * The logo wall: `show: false` leaves it off the page. Its heading and claim (`intro`) are the content's own
   * words: show it only while the claim is true of the entries in logos.yaml.
   */
  marquee: z.strictObject({ show: z.boolean(), heading: text, intro: text, companiesLabel: text, universitiesLabel: text.optional() }),
  cta,
  /** The hero's illustration: two sample profiles and why they match (decorative, hidden from screen readers). */
  preview: z.strictObject({
    caption: text,
    score: text,
    scoreLabel: text,
    people: z.array(z.strictObject({ initials: text.max(2), name: text, role: text, skills: z.array(text).min(1).max(3), badge: text })).length(2),
    reasons: z.array(text).min(2).max(4),
  }),
});

export const ForConsumersSchema = z.strictObject({
  title: text,
  description: text.max(170),
  badge: text,
  headline: text,
  intro: text,
  howHeading: text,
  how: z.array(item).length(4),
  whyHeading: text,
  why: z.array(item).length(4),
  areasHeading: text,
  cta,
});

export const AreaSchema = z.strictObject({
  order: z.number().int(),
  title: text,
  description: text.max(170),
  badge: text,
  headline: text,
  intro: text,
  /** Label of the back link on this area's sector pages, e.g. "Back to Online Business". */
  backLabel: text,
  sections: z.array(z.strictObject({ heading: text, intro: text.optional(), items: z.array(item).min(2).max(6) })).min(1).max(3),
  stats: z.array(stat).max(4).default([]),
  categoriesHeading: text,
  categoriesIntro: text,
  cta,
  theme: z.enum(['default', 'purple', 'green']).default('default'),
});

const logo = z.strictObject({
  name: text,
  domain: text.regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, 'Must be a bare domain like example.com'),
  /** Its logo, a file in static/logos/: required (an entry is shown as its mark, never as a letter); a file
   * that is not there stops the build (the link check of the page's <img>). */
  logo: text.regex(/^[a-z0-9._-]+\.(svg|png|webp)$/, 'Must be a file name like stripe.svg'),
});

export const LogosSchema = z.strictObject({
  companies: z.array(logo).min(1),
  /** A second strip, shown when it has entries. */
  universities: z.array(logo).default([]),
});

export type Home = z.infer<typeof HomeSchema>;
export type ForConsumers = z.infer<typeof ForConsumersSchema>;
export type Area = z.infer<typeof AreaSchema>;
export type Logos = z.infer<typeof LogosSchema>;
