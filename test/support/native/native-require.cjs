// Node's own require, from inside jest's sandbox: modules it loads run in the process's main
// context, where global names (Math, Uint8Array...) are plain lookups, not the sandbox's slow
// ones (~40x slower: a hot loop that names a global pays it on every turn).
'use strict';
const { runInThisContext } = require('node:vm');

/** A require resolving from `filename`, as Node's createRequire makes it outside jest. */
module.exports = (filename) => runInThisContext('process').mainModule.constructor.createRequire(filename);
