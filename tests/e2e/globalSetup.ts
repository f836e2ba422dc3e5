// Builds the real site once, into a temporary folder (the repository's dist/ is never touched), and serves it
// from there with `sitegen preview` (static files + local waitlist backend on a fresh temporary database) for
// every e2e test file. Tests read the URL with inject('baseUrl') and the built folder with inject('distDir').
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { sitegen, startServer } from '../helpers/cli.ts';
import { newServiceKey, serviceKeyFile } from '../../plugins/waitlist/serviceKey.ts';

let stop: (() => Promise<void>) | null = null;

export default async function setup(project: TestProject) {
  const t = Date.now();
  const outDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-e2e-site-')));
  const distDir = path.join(outDir, 'dist');
  const b = sitegen(['build', '--quiet', '--out', distDir]);
  if (b.code !== 0) { fs.rmSync(outDir, { recursive: true, force: true }); throw new Error(`sitegen build failed:\n${b.stderr}`); }
  const dataDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sitegen-e2e-db-')));
  // The local service key is random per database; written first, so the tests know it (the server keeps it).
  const serviceKey = newServiceKey();
  fs.writeFileSync(serviceKeyFile(dataDir), serviceKey, { mode: 0o600 });
  const server = await startServer(['preview', '--port', '0', '--out', distDir], { env: { SITEGEN_WAITLIST_DIR: dataDir } });
  stop = async () => {
    await server.stop();
    for (const dir of [dataDir, outDir]) fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(serviceKeyFile(dataDir), { force: true });
  };
  project.provide('baseUrl', server.url);
  project.provide('distDir', distDir);
  project.provide('serviceKey', serviceKey);
  console.log(`e2e: site built and served at ${server.url} in ${Date.now() - t} ms`);
  return async () => { await stop?.(); };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    distDir: string;
    /** The local waitlist database's service-role key. */
    serviceKey: string;
  }
}
