// callSite: where a template wrote an element whose component may fail later, when React calls it (after the
// template's function has returned, so the failure's own stack no longer names the template). The site
// module's JSX runtime (site/provided.ts) gives an <Image> and an island element an Error made where the
// template wrote it, under CALL_SITE; the component's error takes that stack, and the render stage locates
// it at the template's file, line and column through the site module's source map.

/** The key of the call site in an element's props (a symbol: never a prop a component reads or JSON carries). */
export const CALL_SITE: unique symbol = Symbol.for('sitegen.callSite');

/** An error of `Kind` with `text`, whose stack is the place the element was written when that is known. */
export function errorAtCallSite<E extends Error>(props: object, text: string, Kind: new (text: string) => E): E {
  const e = new Kind(text);
  const at = (props as { [CALL_SITE]?: unknown })[CALL_SITE];
  const stack = at instanceof Error ? at.stack : undefined;
  const nl = stack?.indexOf('\n') ?? -1;
  if (stack && nl >= 0) e.stack = `${e.name}: ${text}${stack.slice(nl)}`;
  return e;
}
