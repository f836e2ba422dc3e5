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
  marquee: z.strictObject({ heading: text, intro: text, companiesLabel: text, universitiesLabel: text }),
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
  /** A file in static/logos/, tried before the CDN (a missing file falls back to the CDN, then the name). */
  logo: text.regex(/^[a-z0-9._-]+\.(svg|png|webp)$/, 'Must be a file name like stripe.svg').optional(),
});

export const LogosSchema = z.strictObject({
  companies: z.array(logo).min(60).max(70),
  universities: z.array(logo).min(65).max(75),
});

export type Home = z.infer<typeof HomeSchema>;
export type ForConsumers = z.infer<typeof ForConsumersSchema>;
export type Area = z.infer<typeof AreaSchema>;
export type Logos = z.infer<typeof LogosSchema>;
