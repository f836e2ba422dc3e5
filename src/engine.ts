// The parts of the engine the compiled site module carries besides the renderer: the content loader.
// `sitegen build` and `check` call it through the site module (SiteModule.engine) rather than importing it
// itself, so the packages it needs (yaml, marked, gray-matter) are loaded once, from the same bundle as the
// site's templates and zod (see siteModule.ts: bundling them saves ~0.2 s of start-up). The render stage
// (pipeline/render.ts) loads no package of its own: build, check and dev import it directly.
export { loadContent } from './content/load.ts';
export { poolLoader } from './parallel/stages.ts';
