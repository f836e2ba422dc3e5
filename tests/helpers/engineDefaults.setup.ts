// Runs before every unit test file. The files share a worker process (vitest.config.ts, isolate: false), and
// the engine keeps its settings per thread (src/core/settings.ts): a build with SITEGEN_WORKERS=0 leaves
// them set until the next build sets them again. A dev server started in process sets none, so without this
// it ran with whatever the file before it left (no parse worker: a slow file froze the server). Each file
// starts from the defaults, as a new `sitegen` process does.
import { configureEngine } from '../../src/core/settings.ts';

configureEngine();
