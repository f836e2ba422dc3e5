// imageFile(): a schema for a content field that names an image file ("cover: ./cover.jpg" beside the post, or
// "/img/cover.jpg" under static/). The content loader reads the file as it validates the entry: a missing
// file, one outside the site or one that is no image is an error at the field; a good one becomes the image's
// facts (its content hash, name, pixel size and format), which <Image src={…}> and image() take, so a template
// shows a post's own photo optimized and never publishes the original. No Node API here (the engine lends the
// reader while a schema runs: content/validate.ts); the browser's <Image> needs none of this module (zod).
import { z } from 'zod';
import type { ContentImage } from '../images/model.ts';

export type { ContentImage };

type Reader = (written: string) => ContentImage | { problem: string };
let reader: Reader | null = null;

/** Runs `fn` (a schema's parse of one file's data) with `r` reading the imageFile() fields it meets. */
export function withImageReader<T>(r: Reader | null, fn: () => T): T {
  const prev = reader;
  reader = r;
  try { return fn(); } finally { reader = prev; }
}

/** The text schemas inside imageFile() fields: a value that is no text there (`cover:` left empty, a number) is
 *  told what to write, an image's path (content/validate.ts). */
const fieldTexts = new WeakSet<object>();
export const isImageFieldText = (schema: unknown): boolean => typeof schema === 'object' && schema !== null && fieldTexts.has(schema);

/** Whether a zod issue is an imageFile() field's problem (said as an ImageError, or with a component's hint). */
export const isImageIssue = (iss: { code?: string }): boolean => iss.code === 'custom' && (iss as { params?: { id?: string } }).params?.id === 'ImageError';

/** A field whose value is the path of an image: relative to the content file, or from static/ when it starts
 *  with "/". The entry's data holds the image's facts (a ContentImage), for <Image src={…}> and image(). */
export function imageFile(): z.ZodType<ContentImage, string> {
  const text = z.string();
  fieldTexts.add(text);
  return text.transform((v, ctx) => {
    const r = reader ? reader(v) : { problem: 'imageFile() reads a field of a collection\'s entries (front matter or data) as they load, and nothing loads this one (a component\'s attribute, a schema run by hand)' };
    if ('problem' in r) {
      ctx.issues.push({ code: 'custom', message: r.problem, input: v, params: { id: 'ImageError' } });
      return z.NEVER;
    }
    return r;
  });
}
