// The static host shared by `sitegen preview` (files on disk) and `sitegen dev` (files in memory).
export { createHost, type Handler, type HostOptions } from './resolver.ts';
export { diskSource } from './diskSource.ts';
export { memorySource, type MemoryLookup } from './memorySource.ts';
export type { FileSource, FileStat, OpenFile } from './source.ts';
export { contentType } from './mime.ts';
