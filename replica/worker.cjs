// Worker-thread entry: TypeScript support for this thread, then the replica worker.
'use strict';
require('tsx/cjs');
require('./worker.ts');
