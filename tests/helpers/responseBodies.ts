// Reads the bodies of a page's responses while it runs, for tests that weigh what a page downloads.
// A body read that the page's or its context's closing cuts short rejects; a read started from an event
// handler has no one awaiting it yet, so that rejection would be unhandled and fail the whole run (CI saw it).
// Here every read is handled from the moment it starts: its error still comes out of settled(), for a test
// that waits for it, and goes nowhere once no test does. stop() ends the recording.
import type { Page, Response } from 'playwright-core';

export interface BodyReads<T> {
  /** URL paths whose bodies are being read or were read, in the order their responses came. */
  paths(): string[];
  /** Every read started so far, finished: URL path → its value. Rejects with the first read that failed. */
  settled(): Promise<Map<string, T>>;
  stop(): void;
}

/** Reads the body of every response `pick` accepts, once per URL path, into `value(body)`. */
export function readBodies<T>(page: Page, pick: (r: Response) => boolean, value: (body: Buffer) => T): BodyReads<T> {
  const reads = new Map<string, Promise<T>>();
  const onResponse = (r: Response) => {
    const key = new URL(r.url()).pathname;
    if (reads.has(key) || !pick(r)) return;
    const read = r.body().then(value);
    read.catch(() => {}); // handled now; settled() still rejects with it
    reads.set(key, read);
  };
  page.on('response', onResponse);
  return {
    paths: () => [...reads.keys()],
    async settled() {
      const entries = [...reads];
      const values = await Promise.all(entries.map(([, read]) => read));
      return new Map(entries.map(([key], i) => [key, values[i]!]));
    },
    stop: () => { page.off('response', onResponse); },
  };
}
