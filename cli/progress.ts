// The progress line of a build's long stages (content files parsed, pages rendered, image versions made): on a terminal, one line
// redrawn in place once a stage has run half a second, wiped before the stage's own line; elsewhere (CI logs,
// a pipe) a plain line every ten seconds, so a long build still shows it is working.
import type { ProgressStage } from '../src/core/progress.ts';
import { dim } from './report.ts';

const UNIT: Record<ProgressStage, string> = { content: 'files parsed', render: 'pages rendered', images: 'image versions made or found' };

export interface ProgressLine {
  update(stage: ProgressStage, done: number, total: number): void;
  /** Wipes a line drawn in place (before anything else is printed). */
  clear(): void;
}

/** `write` writes text as is; `live`: a terminal, where a line can be drawn over. */
export function progressLine(write: (s: string) => void, live: boolean, now: () => number = Date.now): ProgressLine {
  let stage: ProgressStage | null = null;
  let start = 0, last = 0, shown = false;
  return {
    update(s, done, total) {
      const t = now();
      if (s !== stage) { stage = s; start = last = t; }
      if (live ? t - start < 500 || t - last < 100 : t - last < 10_000) return;
      last = t;
      const text = `  ${s.padEnd(12)} ${String(done).padStart(String(total).length)}/${total} ${UNIT[s]}`;
      if (live) { write(`\r\x1b[K${dim(text)}`); shown = true; } else write(`${text}\n`);
    },
    clear() {
      if (shown) write('\r\x1b[K');
      shown = false;
    },
  };
}
