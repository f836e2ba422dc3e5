// otherFiles: the output's files besides the pages (static files, assets, host files, plugin outputs), by the
// stage of a build that writes them (pipeline/build.ts).
import type { ReadyPlan, Session } from './session.ts';
import type { OtherFile } from '../output/write.ts';
import { hostFileChunks, MERGED_HOST_FILES } from '../output/hostfiles.ts';

export /** The output's files besides the pages, by the stage that writes them, in order. */
function otherFiles(session: Session, plan: ReadyPlan): { stage: string; files: [string, OtherFile][] }[] {
  const { manifest, outputs } = plan;
  const statics = session.statics.files;
  return [
    // Static files, and the fingerprinted copies of static images (output/staticImages.ts).
    // (static/_redirects and static/_headers are merged into the host files of those names: plan.ts)
    { stage: 'static', files: [...[...statics].filter(([f]) => !MERGED_HOST_FILES.has(f)), ...outputs.images.copies] },
    { stage: 'assets', files: [...manifest.files] },
    // A static sitemap.xml or robots.txt wins (each made as it is written: plan.ts hostFiles are made when read; the big ones in pieces).
    { stage: 'host files', files: Object.keys(outputs.hostFiles).filter((f) => !statics.has(f) || MERGED_HOST_FILES.has(f)).map((f) => { const chunks = hostFileChunks(outputs.hostFiles, f); return [f, chunks ? { chunks } : () => outputs.hostFiles[f]!]; }) },
    // Plugin outputs: a stage of their own only when there are any.
    ...(outputs.extra.size ? [{ stage: 'outputs', files: [...outputs.extra] }] : []),
  ];
}
