// Helpers for the dev-mode tests: a throwaway copy of a fixture site (committed files are never edited),
// and small waits that poll instead of sleeping a fixed time.
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';

// The copies are made where every test's throwaway sites are (tests/helpers/scratch.ts).
import { copyFixture, removeCopy } from '../helpers/scratch.ts';
export { copyFixture, removeCopy };

/** Edits a file of the copy: `edit` gets the current text and returns the new one. */
/** Rewrites a file of a site copy; an edit that changes nothing is a test bug (a fixture moved on), so it throws. */
export function editFile(dir: string, rel: string, edit: (text: string) => string): void {
  const file = path.join(dir, rel);
  const before = fs.readFileSync(file, 'utf8');
  const after = edit(before);
  if (after === before) throw new Error(`editFile: the edit of ${rel} changed nothing (does the text it replaces still exist?)`);
  fs.writeFileSync(file, after);
}

/** Polls `check` until it returns a truthy value, or fails after `ms`. */
export async function until<T>(check: () => T | Promise<T>, ms = 15_000, what = 'condition'): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface SseEvent { event: string; data: any }

/** A server-sent-events client: `next(pred)` resolves with the first event from now on that matches. */
export function openEvents(url: string): Promise<{ events: SseEvent[]; next: (pred: (e: SseEvent) => boolean, ms?: number) => Promise<SseEvent>; close: () => void }> {
  const events: SseEvent[] = [];
  const waiters: { pred: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }[] = [];
  return new Promise((resolve, reject) => {
    const req = http.get(url, (res) => {
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!event || data === undefined) continue;
          const e = { event, data: JSON.parse(data) };
          events.push(e);
          for (const w of waiters.splice(0)) if (w.pred(e)) w.resolve(e); else waiters.push(w);
        }
      });
      resolve({
        events,
        next: (pred, ms = 20_000) => new Promise((res2, rej2) => {
          const timer = setTimeout(() => rej2(new Error(`no matching event in ${ms} ms; got ${JSON.stringify(events.slice(-5))}`)), ms);
          waiters.push({ pred, resolve: (e) => { clearTimeout(timer); res2(e); } });
        }),
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
  });
}

/** `sitegen dev` on a fresh copy of a fixture, remembering whether (and how) the process exited. */
export async function devOnCopy(name = 'basic') {
  const { startServer } = await import('../helpers/cli.ts');
  const dir = copyFixture(name);
  const server = await startServer(['dev', '--root', dir, '--port', '0', '--no-backend']);
  let exitCode: number | null | undefined;
  server.proc.once('exit', (code) => { exitCode = code; });
  return {
    dir, server,
    exited: () => exitCode,
    async stop() { await server.stop(); removeCopy(dir); },
  };
}
