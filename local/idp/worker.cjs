// Worker-thread entry: TypeScript (and the ESM-only packages) for this thread through tsx, then
// the provider's worker.
'use strict';
require('tsx/cjs');
// oidc-provider 9 warns at load on any Node release before 22; it is measured to work on Node 20
// (shared notes on sign-in), so that one line is dropped while it loads, nothing else.
const warn = console.warn;
console.warn = (...args) => {
    if (!(typeof args[0] === 'string' && args[0].includes('Unsupported runtime'))) warn(...args);
};
try {
    require('./worker.ts');
} finally {
    console.warn = warn;
}
