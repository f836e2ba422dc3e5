// progress: how far a long stage of a build is (content files parsed, pages rendered, image versions made), for the CLI's progress
// line. Module state of the one engine in this thread, set by build() for its run and cleared after it: the
// loaders and the renderer count as they go, and a count made with no listener costs a call.
export type ProgressStage = 'content' | 'render' | 'images';
export type ProgressListener = (stage: ProgressStage, done: number, total: number) => void;

let listener: ProgressListener | null = null;

/** Who hears the counts (null: nobody). */
export function listenProgress(fn: ProgressListener | null): void {
  listener = fn;
}

/** `done` of `total` items of `stage` are through. */
export function progress(stage: ProgressStage, done: number, total: number): void {
  listener?.(stage, done, total);
}

/** A counter of `total` items of `stage`: each call reports one more. */
export function counter(stage: ProgressStage, total: number): (n?: number) => void {
  let done = 0;
  return (n = 1) => { if (listener) listener(stage, (done += n), total); };
}

/** A build's stage hook (BuildOptions.onStage), told as each stage ends with its time and a note ("cached"). */
export type StageListener = (name: string, ms: number, note?: string) => void;

/** `onStage`, which first runs `run` as the stage named `stage` ends. */
export function whenStageEnds(stage: string, run: () => void, onStage?: StageListener): StageListener {
  return (name, ms, note) => { if (name === stage) run(); onStage?.(name, ms, note); };
}
