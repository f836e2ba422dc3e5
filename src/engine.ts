// The parts of the engine the compiled site module carries besides the renderer: the content loader and the
// render stage. `sitegen build` and `check` call them through the site module (SiteModule.engine) rather than
// importing them itself, so the packages they need (yaml, marked, gray-matter, React) are loaded once, from
// the same bundle as the site's templates and zod (see siteModule.ts: bundling them saves ~0.2 s of start-up).
export { loadContent } from './content/load.ts';
export { poolLoader } from './parallel/stages.ts';
export { renderPlan } from './pipeline/render.ts';
