// `sitegen prepare`: compiles sitegen's own code for this install, once, so that the first build after
// `npm install` / `npm ci` does not have to. The CLI bundle is made by bin/sitegen.js before any command
// runs (in a repository checkout; a published package ships it in lib/); this adds the vendor bundle of the
// packages every build loads and a code cache of their common functions (src/site/vendor.ts). npm runs it as the package's postinstall script.
// Nothing here is about a site, so no site's cache is touched. It never fails an install: without it, the
// first build compiles the same things itself.
import path from 'node:path';

export async function runPrepare(): Promise<number> {
  const t0 = performance.now();
  try {
    const { ensureVendor, writeInstallCodeCache } = await import('../src/site/index.ts');
    const file = await ensureVendor();
    // A code cache of the packages' common functions: the first build compiles less.
    try { await writeInstallCodeCache(file); } catch (e: any) { process.stderr.write(`sitegen: no code cache for the vendor bundle (the first build makes one): ${e?.message ?? e}\n`); }
    process.stdout.write(`sitegen: compiled for this install in ${Math.round(performance.now() - t0)} ms (${path.relative(process.cwd(), file) || file})\n`);
  } catch (e: any) {
    process.stderr.write(`sitegen: could not compile ahead (the first build will do it): ${e?.message ?? e}\n`);
  }
  return 0;
}
