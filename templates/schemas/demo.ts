// Schemas of the demo form routes: the validation rules of both forms (SPEC section 5, exact messages) and the
// shape of content/demo/forms.yaml. The form schemas are imported by the islands (props cannot carry a schema)
// and by any server-side use, so the browser and a server check exactly the same rules.
import * as z from 'zod';

/** A required string: a missing value and an empty one give the same message. `abort` stops the format check
 *  from adding a second message to an empty field. */
const required = (message: string) => z.string({ error: message }).min(1, { error: message, abort: true });

export const EMAIL_PATTERN = /^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}$/i;
export const ZIP_PATTERN = /^\d{5}(-\d{4})?$/;
/** Optional "+" and 1-3 digit country code, then 3 digits (optionally in balanced parentheses), 3 digits and
 *  4 digits, each group optionally separated by a space, a dot or a dash. */
export const PHONE_PATTERN = /^(?:\+\d{1,3}[ .-]?)?(?:\(\d{3}\)|\d{3})[ .-]?\d{3}[ .-]?\d{4}$/;

export const SimpleFormSchema = z.strictObject({
  title: required('Title is required'),
  description: required('Description is required'),
});

export const AddressSchema = z.strictObject({
  street: required('Street address is required'),
  city: required('City is required'),
  state: required('State is required'),
  zipCode: required('Zip code is required').regex(ZIP_PATTERN, 'Invalid zip code format'),
  country: required('Country is required'),
});

export const AddressFormSchema = z.strictObject({
  // Trimmed first, so a name of only spaces is empty (and the parsed value carries no stray spaces).
  fullName: z.string({ error: 'Full name is required' }).trim().min(1, 'Full name is required'),
  email: required('Email is required').regex(EMAIL_PATTERN, 'Invalid email address'),
  address: AddressSchema,
  phone: required('Phone number is required').regex(PHONE_PATTERN, 'Invalid phone number format'),
});

export type SimpleFormValues = z.infer<typeof SimpleFormSchema>;
export type AddressFormValues = z.infer<typeof AddressFormSchema>;

/** The schema piece at a dotted field path ("address.zipCode"), so one field can be checked on its own. */
export function fieldSchema(schema: z.ZodObject, path: string): z.ZodType {
  let node: z.ZodType = schema;
  for (const key of path.split('.')) {
    if (!(node instanceof z.ZodObject) || !(key in node.shape)) throw new Error(`No field "${path}" in the schema`);
    node = node.shape[key] as z.ZodType;
  }
  return node;
}

/** The message of one field's value, or null when it is valid. */
export function fieldError(schema: z.ZodObject, path: string, value: unknown): string | null {
  const r = fieldSchema(schema, path).safeParse(value);
  return r.success ? null : (r.error.issues[0]?.message ?? null);
}

/** Every field's first message, keyed by dotted path, from a parse of the whole form. */
export function formErrors(schema: z.ZodObject, values: unknown): Record<string, string> {
  const r = schema.safeParse(values);
  const out: Record<string, string> = {};
  if (!r.success) for (const i of r.error.issues) out[i.path.join('.')] ??= i.message;
  return out;
}

// ---- Content: content/demo/forms.yaml ----
const text = z.string().trim().min(1, 'Must not be empty');
const field = z.strictObject({ label: text, placeholder: text.optional(), help: text.optional() });
const page = { title: text, description: text.max(170), badge: text, heading: text, intro: text, submit: text };

export const DemoFormsSchema = z.strictObject({
  successMessage: text,
  submitting: text,
  requiredNote: text,
  /** A stand-in for server time, so the submitting state (disabled button) is visible in a demo that sends nothing. */
  submitDelayMs: z.number().int().min(0).max(5000),
  /** The line shown when JavaScript is off (the submit button stays disabled: nothing is sent). */
  noScript: text,
  simple: z.strictObject({ ...page, fields: z.strictObject({ title: field, description: field }) }),
  address: z.strictObject({
    ...page,
    fields: z.strictObject({
      fullName: field, email: field, street: field, city: field, state: field, zipCode: field, country: field, phone: field,
    }),
    countryPlaceholder: text,
    countries: z.array(z.strictObject({ label: text, value: text })).min(1)
      .refine((l) => new Set(l.map((c) => c.value)).size === l.length, 'Country values must be unique'),
  }),
});

export type DemoForms = z.infer<typeof DemoFormsSchema>;
export type DemoField = z.infer<typeof field>;
