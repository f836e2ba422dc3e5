// The servers as library functions: `preview()` serves a built site, `dev()` builds one in memory and serves
// it with live reload; each with the site's server plugins in front. The CLI calls these and prints.
export { preview, ServerStartError, DEV_PORT, PREVIEW_PORT, movedNote, type PreviewOptions, type PreviewServer } from './preview.ts';
export { dev, type DevOptions, type DevHandle, type PluginRestart } from './dev.ts';
