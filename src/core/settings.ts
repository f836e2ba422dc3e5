// Engine settings: how a build runs (caches, worker threads, page writes), never what it produces. They are
// typed build options (BuildOptions.settings); the CLI maps its flags and the SITEGEN_* environment onto
// them in one place (cli/options.ts), and nothing in src/ reads the environment for them. Module state of
// the one engine in this thread; pool workers are given the main thread's at start (parallel/workerEntry.ts).
export interface EngineSettings {
  /** Read and write the build caches (node_modules/.cache/sitegen/, <root>/.sitegen/cache/). */
  cache: boolean;
  /** Worker threads besides the main thread; undefined: one per further core (at most MAX_WORKERS). */
  workers?: number;
  /** Content files below which a build runs in-process (measured break-even: see parallel/pool.ts). */
  parallelMin: number;
  /** Whether the main thread takes batches too; false keeps every task on the workers (tests). */
  mainTakesTasks: boolean;
  /**
   * Whether pages render on the workers too; undefined: only when the pool has two or more workers. With one
   * (2 cores) the main thread renders alone and the other core writes (output/writerThread.ts), which
   * measured faster and lighter than rendering on both (see parallel/stages.ts poolRenders).
   */
  renderOnWorkers?: boolean;
  /** Page writes: forced synchronous or on a writer thread; undefined: a writer thread when one thread
   *  renders 1,000 files or more (output/writers.ts). */
  writes?: 'sync' | 'thread';
  /**
   * Pages to render below which a build with the caches writes the changed files into the live output in
   * place (output/patch.ts) instead of staging a whole output, and a build whose inputs did not change at all
   * returns at once (pipeline/upToDate.ts). 0: every build stages a whole output.
   */
  patchMax: number;
  /** Content files from which a build with the caches keeps Markdown bodies' HTML on disk, read when asked
   *  (content/diskBody.ts), instead of every body in memory. */
  diskBodiesMin: number;
  /** Files of the live output from which a build whose inputs changed stamps them on another thread while
   *  it loads (pipeline/outputProbe.ts), instead of one lstat each on the main thread when it compares; and
   *  from which a build that wrote a whole output stamps it there while it writes the replay's record. */
  probeMin: number;
  /** Content files from which a build's heap grows slowly, for its peak memory (core/heap.ts). */
  bigHeapMin: number;
  /** Print memory use after each build stage (stderr). */
  debugMemory: boolean;
  /** Whether a build after an edit of Markdown bodies alone renders only their pages from the last build's
   *  record (pipeline/replay.ts); false: every build loads and routes the whole content. */
  replay: boolean;
}

export const DEFAULT_SETTINGS: EngineSettings = {
  cache: true, parallelMin: 2000, mainTakesTasks: true, patchMax: 2000, diskBodiesMin: 2000, probeMin: 4000, bigHeapMin: 40_000, debugMemory: false, replay: true,
};

let current: EngineSettings = DEFAULT_SETTINGS;

/** The settings in force in this thread. */
export function engineSettings(): EngineSettings {
  return current;
}

/** Sets the settings for what runs next in this thread (unset fields take the defaults). */
export function configureEngine(settings: Partial<EngineSettings> = {}): EngineSettings {
  current = { ...DEFAULT_SETTINGS, ...settings };
  return current;
}
