// Messages in esbuild's exact Message/Location shape, for `--json`: tools that read esbuild's diagnostics
// (and esbuild.formatMessages itself) read ours. esbuild's convention differs from our terminal form:
// its `line` is 1-based but its `column` is 0-based and counted in UTF-8 bytes of `lineText`; ours is a
// 1-based character column. The catalogue's title and hint travel in `detail`; the hint is also the last
// note, so a renderer that knows nothing of `detail` still shows it.
import type * as esbuild from 'esbuild';
import type { Location, Message } from './types.ts';
import { catalogue } from './errors.ts';

function location(l: Location): esbuild.Location {
  const before = l.column > 0 ? l.lineText.slice(0, l.column - 1) : '';
  return { file: l.file, namespace: 'file', line: l.line, column: Buffer.byteLength(before, 'utf8'), length: 0, lineText: l.lineText, suggestion: '' };
}

export function toEsbuildMessage(m: Message): esbuild.Message {
  const entry = catalogue[m.id as keyof typeof catalogue];
  const notes: esbuild.Note[] = m.notes.map((n) => ({ text: n.text, location: n.location ? location(n.location) : null }));
  if (m.hint) notes.push({ text: `hint: ${m.hint}`, location: null });
  return {
    id: m.id, pluginName: 'sitegen', text: m.field ? `${m.field}: ${m.text}` : m.text,
    location: m.location ? location(m.location) : null, notes,
    detail: { title: entry?.title ?? null, hint: m.hint ?? null, field: m.field ?? null },
  };
}
