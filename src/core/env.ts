// The environment the engine's own programs start with. While a build notes which variables the site reads
// (process.env is then a view made by pipeline/envRecord.ts trackEnv), the engine's copy of the whole
// environment for a program of its own (the image encoder) is no read by the site: it copies the object
// under the view. Copied through the view, every variable would count as read, and the next build with any
// variable changed (a terminal's, a benchmark's) could keep no page of the last one.
const under = new WeakMap<object, NodeJS.ProcessEnv>();

/** Registers `view` as a view of `env`; returns the view. */
export function envView(env: NodeJS.ProcessEnv, view: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  under.set(view, env);
  return view;
}

/** process.env, or the object under it when it is a view: for the engine's own child processes only. */
export const engineEnv = (): NodeJS.ProcessEnv => under.get(process.env) ?? process.env;
