// The engine's worker program (pool.ts starts it), in one of two roles. A pool worker: the engine's settings
// from the pool, then the site module the pool names (loaded as the main thread loads it, given this
// thread's engine), then the message loop of batch.ts. A page writer thread (output/writers.ts): the loop of
// output/writerThread.ts only. Each role imports only its own code. The CLI bundle and lib/ have this
// program as an entry point of their own (worker.js beside their chunks).
import { isMainThread, parentPort, workerData } from 'node:worker_threads';

if (!isMainThread && parentPort && workerData?.sitegenWriter) {
  const port = parentPort;
  void import('../output/writerThread.ts').then((m) => m.writerMain(port));
} else if (!isMainThread && workerData?.sitegenWorker && parentPort) {
  const port = parentPort;
  const loaded = Promise.all([import('../core/settings.ts'), import('../site/loader.ts'), import('./batch.ts')]);
  port.once('message', (m: { file: string }) => {
    void loaded.then(([{ configureEngine }, { importCompiled }, { workerMain }]) => {
      configureEngine(workerData.settings);
      const site = importCompiled(m.file, []);
      workerMain(port, site.config);
    });
  });
}
