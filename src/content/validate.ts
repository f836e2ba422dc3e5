// Validates parsed data against a zod schema and turns every issue into a located Message.
import type { ZodType } from 'zod';
import type { Location, Message } from '../core/types.ts';
import { message, sortMessages } from '../core/errors.ts';
import type { YamlSource } from './yamlSource.ts';
import { formatPath } from './fieldPath.ts';
import { closest } from '../core/didYouMean.ts';
import { schemaKeys } from '../core/zodShape.ts';
import { textPlaces, type TextPlace } from '../core/textPlace.ts';
import { isImageFieldText, isImageIssue, withImageReader } from '../authoring/imageFile.ts';
import { parseDate } from '../authoring/dates.ts';
import { IMAGE_EXT } from '../images/model.ts';
import { fieldImageReader, type LocalImageOptions } from '../images/local.ts';
import type { ImageDep } from '../images/markdown.ts';

/**
 * Plain-language messages for zod's default issues; a schema's own messages still win. `data` is the
 * value as parsed: a coercing schema (z.coerce.date(), z.coerce.number()) reports what it made of the input
 * (an Invalid Date, NaN), and the user wrote the input, so that is what "received" names.
 */
export function plainError(iss: any, data: unknown): string | undefined {
  switch (iss.code) {
    case 'invalid_type': {
      const coerced = (iss.input instanceof Date && Number.isNaN(iss.input.getTime())) || (typeof iss.input === 'number' && !Number.isFinite(iss.input));
      const input = coerced ? at(data, iss.path ?? []) : iss.input;
      if (input === undefined) return 'Required';
      return `Expected ${iss.expected}, received ${describe(input)}`;
    }
    case 'too_small':
      if (iss.origin === 'string') return iss.minimum === 1 ? 'Must not be empty' : `Must be at least ${iss.minimum} characters`;
      if (iss.origin === 'array') return iss.exact ? `Must have exactly ${items(iss.minimum)}` : `Must have at least ${items(iss.minimum)}`;
      return `Must be at least ${iss.minimum}`;
    case 'too_big':
      if (iss.origin === 'string') return `Must be at most ${iss.maximum} characters`;
      if (iss.origin === 'array') return iss.exact ? `Must have exactly ${items(iss.maximum)}` : `Must have at most ${items(iss.maximum)}`;
      return `Must be at most ${iss.maximum}`;
    case 'invalid_union':
      // A missing field of a union (date(): a Date or a string) is missing, as for any other type.
      return iss.input === undefined ? 'Required' : undefined;
    case 'invalid_value':
      return `Must be one of: ${(iss.values ?? []).map((v: unknown) => JSON.stringify(v)).join(', ')}`;
    default:
      return undefined;
  }
}

const items = (n: unknown) => `${n} item${Number(n) === 1 ? '' : 's'}`;

function at(data: unknown, path: readonly PropertyKey[]): unknown {
  let v: any = data;
  for (const seg of path) v = v == null ? undefined : v[seg];
  return v;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'an invalid date' : 'a date';
  if (typeof v === 'object') return 'a map';
  if ((typeof v === 'number' && !Number.isFinite(v)) || typeof v === 'bigint') return `${typeof v} ${String(v)}`.slice(0, 60);
  return `${typeof v} ${JSON.stringify(v)}`.slice(0, 60);
}

/** The keys a strict object knows, from the schema instance zod hands the error map (none when unknown). */
const knownKeys = (iss: any): string[] => schemaKeys(iss?.inst) ?? [];

/** A schema for a field that holds `v`, as the hint to add one writes it. */
function schemaFor(v: unknown): string {
  if (typeof v === 'boolean') return 'z.boolean().optional() for true or false';
  if (typeof v === 'number') return 'z.number().optional() for a number';
  if (Array.isArray(v)) return v.every((x) => typeof x === 'string') ? 'z.array(z.string()).optional() for a list of texts' : 'z.array(z.unknown()).optional() for a list';
  if (v !== null && typeof v === 'object') return 'z.object({ … }).optional() for a map';
  if (typeof v === 'string' && (/^\d{4}-\d{2}-\d{2}$/.test(v) || parseDate(v) instanceof Date)) return "date().optional() (from 'sitegen-islands') for a date";
  // (an image's path: Astro's heroImage: './hero.jpg')
  if (typeof v === 'string' && IMAGE_EXT.test(v) && !/^[a-z][a-z0-9+.-]*:/i.test(v)) return "imageFile().optional() (from 'sitegen-islands') for an image file";
  return 'z.string().optional() for a text';
}

/** "Did you mean …?" and the fields the object takes, like an unknown config key's hint. */
function unknownFieldHint(key: string, known: string[], guess: string | undefined, value?: unknown): string | undefined {
  if (!known.length) return undefined;
  const list = known.length > 20 ? `${known.slice(0, 20).join(', ')}, …` : known.join(', ');
  // (no close match: likely a field the content had elsewhere, as a site moved from another generator has)
  const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
  const moved = guess || !Object.hasOwn(OTHER_GENERATORS, key) ? undefined : OTHER_GENERATORS[key];
  if (moved) return `${moved} Fields here: ${list}.`;
  return `${guess ? `Did you mean "${guess}"? ` : ''}Fields here: ${list}.${guess ? '' : ` To keep "${key}", add it to the schema in sitegen.config.ts, with its type (${name}: ${schemaFor(value)}).`}`;
}

/** Front matter keys another generator read (a site moved in), and what takes their place here. */
const OTHER_GENERATORS: Record<string, string> = {
  layout: '"layout" chose a template in Eleventy, Jekyll and Hugo: here the route\'s component does, in routes(). Delete the line.',
  eleventyExcludeFromCollections: 'This kept a file out of Eleventy\'s lists: here routes() makes the lists. Delete the line, or keep it as a field (unlisted: z.boolean().optional()) and filter on it in routes().',
  eleventyComputed: 'Eleventy computed this from other fields: here routes() computes what a page shows. Delete it, and compute the values in routes().',
  permalink: 'A permalink is the route\'s path here: add it to the schema (permalink: z.string().optional()) and use it as the path in routes(); permalink: false (no page) is a boolean field (unlisted: z.boolean().optional()) filtered out there.',
};

/** Where `needle` is first written in a source's text (an image field's value, for the messages about its image:
 *  a plain search, where a located path would parse the text again for positions), or the file. */
function textAt(src: YamlSource, needle: string, placeOf: (offset: number) => TextPlace): Location {
  const text = src.text;
  // (where it is a value: after "key:" or "- " on its line, maybe quoted, not in a sentence of another field)
  let i = -1;
  for (let k = needle ? text.indexOf(needle) : -1; k >= 0; k = text.indexOf(needle, k + 1)) {
    if (i < 0) i = k;
    let before = text.slice(text.lastIndexOf('\n', k - 1) + 1, k).trimEnd();
    if (before.endsWith('"') || before.endsWith("'")) before = before.slice(0, -1).trimEnd();
    if (!before || before.endsWith(':') || before.endsWith('-')) { i = k; break; }
  }
  if (i < 0) return { file: src.file, line: 0, column: 0, lineText: '' };
  const place = placeOf(i);
  return { file: src.file, ...place, line: src.lineOffset + place.line };
}

/** How a schema runs: `jitless` skips the parser zod compiles for each object schema on its first use (it pays
 *  off over many files only; dev validates small collections without it, as each compile brings new schemas). */
export interface ValidateOptions {
  jitless?: boolean;
  /** Where imageFile() fields read their images (without: such a field fails, and the file is parsed again). */
  images?: Omit<LocalImageOptions, 'file'>;
}

/**
 * Collections with fewer files are validated without zod's compiled parsers (zod's own `jitless` option):
 * compiling one for each object schema costs more than it saves over a few dozen files, and each new site
 * module (a template edit in dev) brings new schemas to compile again. Measured on the real site:
 * re-validating all content after a template edit took 24 ms of CPU with them, 7 ms without.
 */
const JIT_MIN_FILES = 100;
export const validateOptionsFor = (files: number): ValidateOptions => ({ jitless: files < JIT_MIN_FILES });

/** `deps`: the images its imageFile() fields read, whether or not the data passed (the content cache checks their
 *  stamps; dev validates a file again when one changes, a refused photo replaced among them). */
export function validateData<T>(schema: ZodType<T>, data: unknown, src: YamlSource, opts: ValidateOptions = {}): { data?: T; errors: Message[]; deps?: ImageDep[] } {
  // An unknown key's issue reaches the error map with its object schema, which the final issue no longer
  // carries: its known keys are kept here, by the issue's list of unknown keys.
  const known = new WeakMap<object, string[]>();
  const deps: ImageDep[] = [];
  let placeOf: ((offset: number) => TextPlace) | undefined; // (made when an image is first placed)
  const read = opts.images ? fieldImageReader({ ...opts.images, file: src.file }, deps, (written) => textAt(src, written, placeOf ??= textPlaces(src.text))) : null;
  const imageTexts = new Set<string>(); // (the paths of imageFile() fields given no text)
  const r = withImageReader(read, () => schema.safeParse(data, { jitless: opts.jitless, error: (iss) => {
    if (iss.code === 'unrecognized_keys' && Array.isArray(iss.keys)) known.set(iss.keys, knownKeys(iss));
    if (iss.code === 'invalid_type' && isImageFieldText((iss as { inst?: unknown }).inst)) imageTexts.add(JSON.stringify(iss.path ?? []));
    return plainError(iss, data);
  } }));
  if (r.success) return { data: r.data, errors: [], ...(deps.length ? { deps } : {}) };
  const errors: Message[] = [];
  // A misspelt required field (`descripton:`) is one mistake: said once, at the key written, whose hint names
  // the field meant; not also as that field "Required" at the start of the data.
  // (each unknown key's did-you-mean, by its issue's list of keys: made once, for this and for its hint)
  const meant = new Set<string>(), guesses = new Map<unknown[], (string | undefined)[]>();
  for (const iss of r.error.issues) if (iss.code === 'unrecognized_keys') {
    const list = iss.keys.map((key) => closest(key, known.get(iss.keys) ?? []));
    guesses.set(iss.keys, list);
    list.forEach((guess) => { if (guess) meant.add(JSON.stringify([...iss.path, guess])); });
  }
  for (const iss of r.error.issues) {
    if (iss.message === 'Required' && meant.has(JSON.stringify(iss.path))) continue;
    if (iss.code === 'unrecognized_keys') {
      for (const [i, key] of iss.keys.entries()) {
        const hint = unknownFieldHint(key, known.get(iss.keys) ?? [], guesses.get(iss.keys)?.[i], at(data, [...iss.path, key]));
        errors.push(message('ContentSchemaError', `Unknown field "${key}"`, src.locateKey(iss.path, key), { field: formatPath([...iss.path, key]), ...hint ? { hint } : {} }));
      }
      continue;
    }
    // YAML keeps `2024-05-01` a string (so content stays plain data); z.date() wants a Date.
    const written = at(data, iss.path);
    const dateHint = iss.code !== 'invalid_type' || iss.expected !== 'date' || typeof written !== 'string' ? {}
      : Number.isNaN(Date.parse(written)) ? { hint: 'Write the date as YYYY-MM-DD (or an ISO 8601 date and time).' }
      : { hint: "YAML dates are strings: declare the field with date() from sitegen-islands (import { date } from 'sitegen-islands'; date: date()), which reads them and refuses a day that does not exist." };
    // One value where a list goes (Eleventy's `tags: posts`): the list form of what was written.
    const key = iss.path.length ? String(iss.path[iss.path.length - 1]) : '';
    // (`-react` under a key: a dash with no space after it, which YAML reads as text)
    const dashed = typeof written === 'string' && /^-[^\s\d.-]/.test(written) ? written.slice(1) : null;
    const listHint = iss.code === 'invalid_type' && iss.expected === 'array' && (typeof written === 'string' || typeof written === 'number') && key
      ? { hint: dashed !== null ? `A list item has a space after its "-": - ${dashed.slice(0, 40)}` : `Write a list, even of one: ${key}: [${typeof written === 'string' ? JSON.stringify(written).slice(1, -1).slice(0, 40) : written}]` } : {};
    // A number written as people write it ("3,50", "1 200", "$4", "12%"), or quoted: as YAML and JSON take one.
    const numberHint = iss.code === 'invalid_type' && iss.expected === 'number' && typeof written === 'string' ? numberAsWritten(written) : {};
    // A missing field has no place of its own: said at the map that lacks it, which the hint names as such.
    const missingHint = iss.message === 'Required' && key && written === undefined ? { hint: `The ${iss.path.length > 1 ? 'map' : 'file'} has no ${key} field: add one (${key}: …). The place shown is where ${iss.path.length > 1 ? 'that map' : 'its data'} starts.` } : {};
    // YAML 1.2 reads yes, no, on and off as text (YAML 1.1 read them as booleans).
    const boolHint = iss.code === 'invalid_type' && iss.expected === 'boolean' && typeof written === 'string' && /^(?:y|yes|n|no|on|off|true|false)$/i.test(written) ? { hint: `Write true or false: YAML reads "${written}" as text.` } : {};
    // A number or true/false where text goes (`title: 42`): quoted, YAML and JSON read it as text.
    // (Eleventy's `permalink: false`, a file that writes no page: quoted, it would be a path named "false")
    const textHint = iss.code === 'invalid_type' && iss.expected === 'string' && (typeof written === 'number' || typeof written === 'boolean')
      ? { hint: key === 'permalink' && written === false ? 'permalink: false wrote no page in Eleventy: here a page is a route. Take the line out and leave the file out of routes(), or make it a field of its own (unlisted: true, unlisted: z.boolean().optional()) that routes() filters on.' : `Put the value in quotes, as written ("…"), so it is read as text, not as a ${typeof written}.` } : {};
    // A key with nothing after it (`tags:`) is null in YAML, not an empty list or text.
    const last = iss.path[iss.path.length - 1];
    const nullHint = iss.code !== 'invalid_type' || written !== null || !key ? {}
      : typeof last === 'number' ? { hint: 'A list item with nothing after its "-" is empty (null): give it a value, or take the line out.' }
      : { hint: `${key}: with nothing after it is empty (null): write ${iss.expected === 'array' ? `${key}: []` : iss.expected === 'string' ? `${key}: ""` : `a value after "${key}:"`}, or leave the line out if the field is optional.` };
    const id = isImageIssue(iss) ? 'ImageError' : 'ContentSchemaError';
    // An imageFile() field given no text: what to write is an image's path.
    const named = typeof last === 'string' ? key : 'image';
    const imageHint = imageTexts.has(JSON.stringify(iss.path)) && written !== undefined ? { hint: `Write the path of an image file: beside this file (${named}: ./photo.jpg) or under static/ (/img/photo.jpg)${written === null && typeof last === 'string' ? ', or leave the line out if the field is optional' : ''}.` } : {};
    errors.push(message(id, iss.message, src.locate(iss.path), { field: formatPath(iss.path) || undefined, ...dateHint, ...listHint, ...numberHint, ...missingHint, ...boolHint, ...textHint, ...nullHint, ...imageHint }));
  }
  return { errors: sortMessages(errors), ...(deps.length ? { deps } : {}) };
}

/** Digits with a decimal comma, group separators, a currency sign or a percent sign around them. Each part
 *  is a run of one class, the classes apart: linear. Tried on the first 40 characters only. */
const PEOPLE_NUMBER = /^[\s$€£¥]*[+-]?\d+(?:[ ,.'\u00a0\u202f]\d{3})*(?:[.,]\d+)?[\s%$€£¥]*$/u;

function numberAsWritten(written: string): { hint?: string } {
  const t = written.trim().slice(0, 40);
  if (t !== '' && Number.isFinite(Number(t))) return { hint: `Write the number without quotes: ${t}` };
  if (!PEOPLE_NUMBER.test(t)) return {};
  // The last separator is the decimal one when two digits or one follow it ("3,50"), else one of thousands ("1,200").
  const digits = t.replace(/[^\d.,]/g, '');
  const last = Math.max(digits.lastIndexOf(','), digits.lastIndexOf('.'));
  const decimal = last >= 0 && digits.length - last - 1 !== 3;
  let n = decimal ? `${digits.slice(0, last).replace(/[.,]/g, '')}.${digits.slice(last + 1)}` : digits.replace(/[.,]/g, '');
  // One comma before three digits ("1,200") reads either way.
  if (!decimal && digits.replace(/\d/g, '') === ',') n += `, or ${digits.replace(',', '.')} if the comma is a decimal one`;
  return { hint: `Write a number as YAML and JSON read one: digits with a decimal point, no separators, currency or % (${n}).` };
}
