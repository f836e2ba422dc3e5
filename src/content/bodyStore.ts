// bodyStore: writing Markdown bodies into the build cache's bodies files (see diskBody.ts, which reads them back:
// an entry's body fields are read from these bytes whenever they are asked).
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { MarkdownText } from '../markdown/entryText.ts';
import { bodiesDir, type BodyRef } from './diskBody.ts';

/** A body to keep: its HTML and its text (headings, excerpt, links; the word count goes into its place). */
export interface BodyText { html: string; text?: MarkdownText }

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
    if (html.includes('<sitegen-c')) ref.c = 1;
    if (html.includes('assets/img/')) ref.img = 1;
    buffers.push(b, t, l);
    refs.push(ref);
    at += b.length + t.length + l.length;
  }
  const tmp = path.join(dir, `${file}.tmp`);
  fs.writeFileSync(tmp, Buffer.concat(buffers, at));
  fs.renameSync(tmp, path.join(dir, file));
  return refs;
}
