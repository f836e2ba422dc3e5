// bodyStore: writing Markdown bodies into the build cache's bodies files (see diskBody.ts, which reads them back:
// an entry's body fields are read from these bytes whenever they are asked).
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { MarkdownText } from '../markdown/entryText.ts';
import { bodiesDir, type BodyRef } from './diskBody.ts';
import { IMAGE_DIR } from '../images/model.ts';

/** A body to keep: its HTML and its text (headings, excerpt, links; the word count goes into its place). */
export interface BodyText { html: string; text?: MarkdownText }

/** Whether a body's HTML may hold a component element (1) or name an image variant (2): the scans for those (and
 *  the replay) pass over a body with neither. */
export const bodyHolds = (html: string): number => (html.includes('<sitegen-c') ? 1 : 0) | (html.includes(IMAGE_DIR) ? 2 : 0);

/** Writes bodies into one new file of the bodies folder (beside, then renamed); their places, in order. */
export function writeBodies(root: string, bodies: BodyText[]): BodyRef[] {
  const dir = bodiesDir(root);
  fs.mkdirSync(dir, { recursive: true });
  const file = `${randomBytes(9).toString('base64url')}.html`;
  const buffers: Buffer[] = [];
  const refs: BodyRef[] = [];
  let at = 0;
  for (const { html, text } of bodies) {
    const b = Buffer.from(html, 'utf8');
    const t = Buffer.from(JSON.stringify([text?.headings ?? [], text?.excerpt ?? '']), 'utf8');
    const l = Buffer.from(JSON.stringify(text?.links ?? []), 'utf8');
    const ref: BodyRef = { file, at, bytes: b.length, textBytes: t.length, linkBytes: l.length, w: text?.words ?? 0 };
    const holds = bodyHolds(html);
    if (holds & 1) ref.c = 1;
    if (holds & 2) ref.img = 1;
    buffers.push(b, t, l);
    refs.push(ref);
    at += b.length + t.length + l.length;
  }
  const tmp = path.join(dir, `${file}.tmp`);
  fs.writeFileSync(tmp, Buffer.concat(buffers, at));
  fs.renameSync(tmp, path.join(dir, file));
  return refs;
}
