// Preloaded into a sitegen process by a test (NODE_OPTIONS=--require): counts this thread's
// fs.ftruncateSync calls and appends "<count>\n" to $SITEGEN_TEST_TRUNCATES when the process exits.
'use strict';
const fs = require('node:fs');
const { isMainThread } = require('node:worker_threads');
if (isMainThread && process.env.SITEGEN_TEST_TRUNCATES) {
  const real = fs.ftruncateSync;
  let calls = 0;
  fs.ftruncateSync = function ftruncateSync(...args) { calls++; return real.apply(this, args); };
  process.on('exit', () => fs.appendFileSync(process.env.SITEGEN_TEST_TRUNCATES, `${calls}\n`));
}
