// A pool worker's program (pool.ts starts it): the engine's settings from the pool, then the site module the
// pool names (loaded as the main thread loads it, given this thread's engine), then the message loop of
// batch.ts. The CLI bundle and lib/ have it as an entry point of their own (worker.js beside their chunks).
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { configureEngine } from '../core/settings.ts';
import { importCompiled } from '../site/loader.ts';
import { workerMain } from './batch.ts';

if (!isMainThread && workerData?.sitegenWorker && parentPort) {
  const port = parentPort;
  configureEngine(workerData.settings);
  port.once('message', (m: { file: string }) => {
    const site = importCompiled(m.file, []);
    workerMain(port, site.config);
  });
}
