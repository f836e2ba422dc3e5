// Dev parses the content files that changed on a worker thread (the build's pool, src/parallel/pool.ts, with
// one worker running workerMain with the compiled site module), so a slow file (a Markdown extension that
// takes seconds) never stops the dev server from answering: serving pages, the event stream, reports.
// A parse that runs past the timeout is stopped (the worker is terminated and another started) and becomes
// a located error on the file. The worker imports one site module for its life: a new module stops it, and
// the next starts when the dev server asks (`ready`, after each rebuild: never during one, on 2 cores) or at
// the next changed file. Until it is ready (about a second) changed files are parsed in-thread, so an edit
// never waits for a worker to start.
import type { Message } from '../core/types.ts';
import type { LoadResult } from '../content/load.ts';
import type { ImageDep } from '../images/markdown.ts';
import { fileLocation, message } from '../core/errors.ts';
import { startPool, CloneError, type Pool } from '../parallel/pool.ts';
import { engineSettings } from '../core/settings.ts';

export interface ContentParser {
  /** The compiled site module the worker loads (after each good compile): a new one starts a new worker. */
  use(moduleFile: string): void;
  /**
   * Parses and validates one file (relative to content/) of a collection; null when it cannot run on the
   * worker (not ready yet, a result that cannot cross threads, a worker that failed): parse it in-thread.
   */
  parse(collection: string, rel: string): Promise<(Pick<LoadResult, 'entry' | 'errors' | 'warnings'> & { deps?: ImageDep[] }) | null>;
  /** Starts the worker for the current module if none runs; resolves when it is ready (or failed to start). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export const PARSE_TIMEOUT_MS = 10_000;

export function contentParser(root: string, timeoutMs = PARSE_TIMEOUT_MS): ContentParser {
  let moduleFile: string | null = null;
  let pool: Pool | null = null;
  let started: Promise<void> = Promise.resolve();
  let isReady = false;
  let closed = false;
  // One file at a time, each with its own timer: a timeout names the file that ran too long.
  let queue: Promise<unknown> = Promise.resolve();

  const stop = (): Promise<void> => {
    const p = pool;
    pool = null;
    isReady = false;
    return p ? p.close().catch(() => {}) : Promise.resolve();
  };
  // A module no worker could import is not tried again until the next compile.
  let failedFile: string | null = null;
  const start = (): void => {
    void stop();
    // SITEGEN_WORKERS=0 keeps everything on this thread, in dev too.
    if (closed || !moduleFile || moduleFile === failedFile || engineSettings().workers === 0) return;
    const p = startPool(1);
    const file = moduleFile;
    pool = p;
    p.load(file);
    started = p.ready(0).then(() => { if (pool === p) isReady = true; }, () => { if (pool === p) { failedFile = file; void stop(); } });
  };

  async function run(collection: string, rel: string): Promise<(Pick<LoadResult, 'entry' | 'errors' | 'warnings'> & { deps?: ImageDep[] }) | null> {
    const p = pool;
    if (!p) start();
    if (!p || !isReady) return null;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => { timer = setTimeout(() => resolve('late'), timeoutMs); });
    try {
      const answer = await Promise.race([p.sendTo<LoadResult[]>(0, { type: 'load', root, indices: [0], items: [{ collection, rel }] }), late]);
      if (answer === 'late') {
        start(); // terminates the stuck worker, and starts the next one
        const seconds = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 100) / 10} s` : `${timeoutMs} ms`;
        const m: Message = message('ContentReadError', `parsing this file took longer than ${seconds} and was stopped`, fileLocation(`content/${rel}`, 1, 1), {
          hint: 'A Markdown extension or plugin hook may not finish on this file (a loop, a runaway pattern); the dev server kept serving the last good build.',
        });
        return { errors: [m] };
      }
      const [r] = answer;
      return { entry: r!.entry, errors: r!.errors, deps: r!.parsed?.deps, ...(r!.warnings ? { warnings: r!.warnings } : {}) };
    } catch (e) {
      // A result that cannot cross threads, or a worker that died: this file is parsed in-thread instead.
      if (!(e instanceof CloneError) && pool === p) start();
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    use(file) {
      if (file === moduleFile) return;
      moduleFile = file;
      void stop();
    },
    parse(collection, rel) {
      const next = queue.then(() => run(collection, rel));
      queue = next.catch(() => {});
      return next;
    },
    ready() {
      if (!pool) start();
      return started;
    },
    async close() { closed = true; await queue; await stop(); },
  };
}
