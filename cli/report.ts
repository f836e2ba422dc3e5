// Turns a BuildResult into what a person reads in a terminal (or JSON for machines).
import type { BuildResult, Message } from '../src/core/types.ts';
import { catalogue, formatMessageLong, visibleControls } from '../src/core/errors.ts';
import { toEsbuildMessage } from '../src/core/esbuildMessage.ts';
import { pageTypes } from '../src/core/pageTypes.ts';

const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: string) => (s: string) => (useColor ? `\x1b[${code}m${s}\x1b[0m` : s);
export const red = paint('31'), green = paint('32'), dim = paint('2'), bold = paint('1'), yellow = paint('33');

export function printMessages(list: Message[], kind: 'error' | 'warning', write: (s: string) => unknown = (s) => process.stderr.write(s + '\n')): void {
  // A hint said for the message just before is not said again (ten missing images: one hint, under the first).
  let said: string | undefined;
  for (const m of list) {
    const title = catalogue[m.id as keyof typeof catalogue]?.title;
    // (a file's text, in the message or its code frame, never drives the terminal: its controls shown escaped)
    write(`${kind === 'error' ? red('✗') : yellow('!')} ${visibleControls(formatMessageLong(m))}${title ? dim(`  [${title}]`) : ''}`);
    if (m.hint && m.hint !== said) write(dim(`  hint: ${visibleControls(m.hint)}`));
    said = m.hint;
  }
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** "1 page", "2 pages". */
export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function summary(result: BuildResult): string {
  const lines: string[] = [];
  const rows = result.pageTypes ?? pageTypes(result.pageReports);
  if (rows.length) {
    lines.push(dim('  page type                    pages   JS (gzip, max)  islands'));
    for (const t of rows) {
      lines.push(`  ${t.type.padEnd(28)} ${String(t.pages).padStart(5)}   ${(t.jsGzipMax ? kb(t.jsGzipMax) : '0 B').padStart(14)}  ${t.islands.join(', ') || '-'}`);
    }
  }
  for (const n of result.notices) lines.push(`${yellow('note')} ${n}`);
  const images = result.images?.files ? ` (${count(result.images.files, 'image variant')}: ${result.images.processed} made, ${result.images.cached} from the cache)` : '';
  // A build on the output of the last one says how much of it was made again: the others were kept as they were.
  const kept = result.rendered !== undefined && result.rendered < result.pages ? ` (${result.rendered} rendered, ${result.pages - result.rendered} unchanged)` : '';
  lines.push(`${green('✓')} ${count(result.pages, 'page')}${kept}, ${count(result.aliases, 'alias', 'aliases')}, ${count(result.assets, 'asset')}${images} → ${result.outDir} in ${result.timings.total} ms`);
  return lines.join('\n');
}

export function jsonResult(result: BuildResult): string {
  return JSON.stringify({
    // esbuild's Message shape exactly (esbuild.formatMessages renders them): see src/core/esbuildMessage.ts.
    errors: result.errors.map(toEsbuildMessage), warnings: result.warnings.map(toEsbuildMessage), pages: result.pages, ...(result.rendered !== undefined ? { rendered: result.rendered } : {}), aliases: result.aliases,
    assets: result.assets, timings: result.timings, outDir: result.outDir, pageReports: result.pageReports, notices: result.notices, cached: result.cached,
    ...(result.workers ? { workers: result.workers } : {}),
    ...(result.typecheck ? { typecheck: result.typecheck } : {}),
    ...(result.images ? { images: result.images } : {}),
  }, null, 2);
}
