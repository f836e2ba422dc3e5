// date(): a schema for a date field that is a real date. YAML keeps `2025-02-30` a string; z.coerce.date()
// (like every Date parser) rolls it over to March 2. This one accepts a Date or an ISO 8601 date
// ("2025-02-28", "2025-02-28T10:30", "2025-02-28T10:30:00+02:00", "2025-02-28 10:30:00 +0200") and refuses a day, month or time that does
// not exist, saying why ("February 2025 has 28 days"). A time without a zone is UTC, as a date alone is.
import { z } from 'zod';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
// Linear: fixed-width fields, one optional group each. The zone may follow a space and omit its colon
// ("2024-01-05 10:30:00 +0100", the form Jekyll writes and YAML 1.1 reads).
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)? ?(Z|[+-]\d{2}:?\d{2})?)?$/;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** A day written with its month's English name, as Astro's blog writes `pubDate` ("Jul 08 2022", "July 8, 2022",
 *  "Sept. 3 2024"). Linear: fixed classes, one optional group each. */
const NAMED = /^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})$/;

/** A date from a month's name, a day and a year: that day in UTC, as a YYYY-MM-DD date is; null when the word is
 *  no month's name (or its first three letters, or Sept). */
function namedDay(m: RegExpExecArray): Date | string | null {
  const word = m[1]!.toLowerCase();
  const month = MONTHS.findIndex((name) => name.toLowerCase().startsWith(word) && (word.length === 3 || word === name.toLowerCase() || word === 'sept'));
  if (month < 0) return null;
  const year = Number(m[3]), day = Number(m[2]), days = daysIn(year, month + 1);
  if (day < 1 || day > days) return `${MONTHS[month]} ${year} has ${days} days`;
  const d = new Date(Date.UTC(2000, month, day));
  d.setUTCFullYear(year); // (Date.UTC takes a year below 100 for 19xx)
  return d;
}

/** The Date a string names, or why it names none. */
export function parseDate(text: string): Date | string {
  const named = NAMED.exec(text.trim().replace(/\s+/g, ' '));
  const fromName = named ? namedDay(named) : null;
  if (fromName !== null) return fromName;
  const m = ISO.exec(text.trim());
  // (Eleventy's words for a file's own dates, which nothing here reads: the date is written in the file)
  if (!m && /^(?:git )?(?:last modified|created)$/i.test(text.trim())) return `"${text.trim()}" is a date Eleventy took from the file or from git, which sitegen does not: write the date itself, as YYYY-MM-DD`;
  if (!m) return `"${text.slice(0, 40)}" is not a date: write it as YYYY-MM-DD (or an ISO 8601 date and time, or as "Jul 8 2022")`;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', written = 'Z'] = m;
  const zone = written.length === 5 ? `${written.slice(0, 3)}:${written.slice(3)}` : written; // +0100 → +01:00
  const year = Number(y), month = Number(mo), day = Number(d);
  if (month < 1 || month > 12) return `${mo} is not a month (01 to 12)`;
  const days = daysIn(year, month);
  if (day < 1 || day > days) return `${MONTHS[month - 1]} ${year} has ${days} days`;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return `${h}:${mi}:${s} is not a time of day`;
  if (zone !== 'Z' && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4)) > 59)) return `${zone} is not a time zone offset`;
  const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${frac.slice(0, 4)}${zone}`);
  return Number.isNaN(ms) ? `"${text.slice(0, 40)}" is not a date` : new Date(ms);
}

/** A date field: a Date, or an ISO 8601 string that names a day that exists. */
export function date(): z.ZodType<Date, Date | string> {
  // (a number is taken only to say what to write instead: `date: 2026` is a year YAML reads as a number)
  return z.union([z.date(), z.string(), z.number()]).transform((v, ctx) => {
    if (v instanceof Date) return v;
    const d = typeof v === 'number' ? `${v} is a number, not a date: write the day as YYYY-MM-DD${Number.isInteger(v) && v >= 1000 && v <= 9999 ? ` (${v}-01-01, the year's first day)` : ''}` : parseDate(v);
    if (typeof d === 'string') {
      ctx.issues.push({ code: 'custom', message: d, input: v });
      return z.NEVER;
    }
    return d;
  }) as unknown as z.ZodType<Date, Date | string>;
}
