// Schema of one sector page: content/sectors/{online,hybrid,brick-and-mortar}/<slug>.yaml.
// The area and slug come from the file's path, so they are not fields here.
import { z } from 'zod';

const text = z.string().trim().min(1, 'Must not be empty');

export const SectorSkill = z.strictObject({
  role: text,
  description: text,
});

export const SectorModel = z.strictObject({
  name: text,
  description: text,
});

export const SectorMetric = z.strictObject({
  value: text,
  label: text,
});

export const SectorExtraSection = z.strictObject({
  title: text,
  intro: text.optional(),
  items: z.array(z.strictObject({ name: text, description: text })).min(2).max(8),
});

export const SectorSchema = z.strictObject({
  /** Position of the category link on the area page, 1..15. */
  order: z.number().int().min(1).max(15),
  /** Short name used on the area page's category card, e.g. "SaaS & Software". */
  name: text,
  /** One line under the name on the area page's category card. */
  summary: text.max(140),
  /** The uppercase category badge, e.g. "SAAS & SOFTWARE". */
  badge: text.regex(/^[^a-z]+$/, 'Badge must be upper case'),
  headline: text,
  tagline: text,
  /** Meta description for search engines, 50..170 characters. */
  description: text.min(50).max(170),
  theme: z.enum(['default', 'purple', 'green']).default('default'),
  skillsTitle: text.default('Essential Co-Founder Skills'),
  skills: z.array(SectorSkill).length(4, 'Exactly 4 skills are required'),
  /** "Business Models", "Business Types" or "Service Models". */
  modelsTitle: text.default('Business Models'),
  models: z.array(SectorModel).length(5, 'Exactly 5 models are required'),
  metrics: z.array(SectorMetric).length(4, 'Exactly 4 metrics are required'),
  /** Extra sections shown between the metrics and the call to action (ecommerce has three). */
  extras: z.array(SectorExtraSection).max(4).default([]),
  cta: z.strictObject({ heading: text, text: text }),
});

export type Sector = z.infer<typeof SectorSchema>;
