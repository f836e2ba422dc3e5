// Schemas of the company pages: content/pages/{faqs,support,careers,investors,accelerators,venture-studios}.yaml
// and the front matter of content/pages/manifesto.md. Shared facts (addresses, launch, response times) are not
// fields here: they come from site.yaml, and copy refers to them with {tokens} (see pages/company/facts.ts).
import { z } from 'zod';

const text = z.string().trim().min(1, 'Must not be empty');
/** Search engines cut longer descriptions; shorter ones are usually replaced by a snippet of the page. */
const description = text.min(50, 'Must be at least 50 characters').max(160, 'Must be at most 160 characters');
const card = z.strictObject({ title: text, text: text });
/** A mail link's words; the address itself comes from site.yaml. */
const mail = z.strictObject({ heading: text, text: text, button: text, subject: text.optional() });

/** Every page opens with the same block: <title>, meta description, an optional badge, the h1 and a lead. */
const head = { title: text, description, badge: text.optional(), heading: text, intro: text };

/** The seven topics SPEC section 2 asks for; an id per topic makes a missing or doubled topic an error. */
export const FAQ_TOPICS = ['matching', 'free', 'verification', 'international', 'process', 'launch', 'part-time'] as const;

export const FaqsSchema = z.strictObject({
  ...head,
  questions: z
    .array(z.strictObject({ id: z.enum(FAQ_TOPICS), question: text, answer: z.array(text).min(1).max(4) }))
    .length(FAQ_TOPICS.length)
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((q, i) => {
        if (seen.has(q.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `Topic "${q.id}" is used twice; each of ${FAQ_TOPICS.join(', ')} once` });
        seen.add(q.id);
      });
    }),
  contact: z.strictObject({ heading: text, text: text, link: text }),
});

export const SupportSchema = z.strictObject({
  ...head,
  email: mail,
  times: z.strictObject({ heading: text, intro: text, paidLabel: text, freemiumLabel: text, note: text }),
  faqs: z.strictObject({ heading: text, text: text, link: text }),
});

export const CareersSchema = z.strictObject({
  ...head,
  areasHeading: text,
  areasIntro: text,
  /** Engineering, Design, Growth, Operations. */
  areas: z.array(card).length(4),
  valuesHeading: text,
  values: z.array(card).min(2).max(4),
  openings: z.strictObject({ heading: text, text: text }),
  apply: mail,
});

export const InvestorsSchema = z.strictObject({
  ...head,
  access: mail.extend({ steps: z.array(text).min(2).max(4), note: text }),
  factsHeading: text,
  facts: z.array(z.strictObject({ label: text, value: text })).min(4).max(6),
  disclaimer: text,
});

const comingSoon = {
  ...head,
  cardsHeading: text,
  cardsIntro: text.optional(),
  contact: mail,
};

/** Elevate, Connect, Insights. */
export const AcceleratorsSchema = z.strictObject({ ...comingSoon, cards: z.array(card).length(3) });
export const VentureStudiosSchema = z.strictObject({ ...comingSoon, cards: z.array(card).min(2).max(4) });

/** Front matter of manifesto.md; the body is the manifesto itself and starts below the h1. */
export const ManifestoSchema = z.strictObject({
  ...head,
  /** The closing call to action: the body ends by saying the waitlist is open, so the form follows it. */
  cta: z.strictObject({ heading: z.string().trim().min(1), text: z.string().trim().min(1) }),
});

export type Faqs = z.infer<typeof FaqsSchema>;
export type Support = z.infer<typeof SupportSchema>;
export type Careers = z.infer<typeof CareersSchema>;
export type Investors = z.infer<typeof InvestorsSchema>;
export type Accelerators = z.infer<typeof AcceleratorsSchema>;
export type VentureStudios = z.infer<typeof VentureStudiosSchema>;
export type ComingSoon = Accelerators | VentureStudios;
export type Manifesto = z.infer<typeof ManifestoSchema>;
