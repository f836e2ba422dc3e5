// `sitegen prepare`: compiles sitegen's own code for this install, once, so that the first build after
// `npm install` / `npm ci` does not have to. The CLI bundle is made by bin/sitegen.js before any command
// runs (in a repository checkout; a published package ships it in lib/); this adds the vendor bundles of the
// packages every build and every dev start loads and a code cache of their common functions (src/site/vendor.ts). npm runs it as the package's postinstall script.
// Nothing here is about a site, so no site's cache is touched. It never fails an install: without it, the
// first build compiles the same things itself.
import path from 'node:path';

export async function runPrepare(): Promise<number> {
  const t0 = performance.now();
  try {
    const { ensureVendor, writeInstallCodeCache } = await import('../src/site/index.ts');
    // The bundle builds load (production) and the one `sitegen dev` loads (React's development build), so
    // neither the first build nor the first dev start compiles one.
    const files: string[] = [];
    for (const mode of ['production', 'development']) {
      const file = ensureVendor(mode);
      files.push(file);
      // A code cache of the packages' common functions: the first build compiles less. Not for dev's
      // bundle: V8 takes a code cache only under the flags it was made with, and dev runs without the
      // build's (bin/sitegen.js); dev saves its own after its first start.
      if (mode === 'production') try { await writeInstallCodeCache(file); } catch (e: any) { process.stderr.write(`sitegen: no code cache for the vendor bundle (the first build makes one): ${e?.message ?? e}\n`); }
    }
    process.stdout.write(`sitegen: compiled for this install in ${Math.round(performance.now() - t0)} ms (${files.map((f) => path.relative(process.cwd(), f) || f).join(', ')})\n`);
  } catch (e: any) {
    process.stderr.write(`sitegen: could not compile ahead (the first build will do it): ${e?.message ?? e}\n`);
  }
  return 0;
}
