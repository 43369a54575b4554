// Jest's two projects: "unit", the contract's rules and the canister's domain and service run
// natively (no wasm, no replica, no build: `npm run test:unit`), and "replica", everything
// else, whose global setup builds the canister wasm first. A run builds only when it selects
// a "replica" test. The browser tests (test/local) install Chromium themselves when missing.
// Every run writes under a folder of its own, removed at its end (test/support/temp-root.cjs).
require('./test/support/temp-root.cjs').useRunTempRoot();

const UNIT = ['test/canister/domain', 'test/canister/service', 'test/contract'];

/** swc's options for one syntax: the tsconfig's target, CommonJS for jest's module registry. */
const swc = (syntax) => ({
    swcrc: false,
    jsc: { parser: { syntax }, target: 'es2022' },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
});

const shared = {
    rootDir: __dirname,
    testEnvironment: 'node',
    // swc compiles (no type check here: that is `npm run typecheck`), the tests like the sources;
    // .js too: the ESM-only packages the tests use as relying party (openid-client, jose,
    // oauth4webapi) are compiled to CommonJS like the tests themselves.
    transform: {
        '^.+\\.ts$': ['@swc/jest', swc('typescript')],
        '^.+\\.js$': ['@swc/jest', swc('ecmascript')],
    },
    transformIgnorePatterns: ['/node_modules/(?!(jose|openid-client|oauth4webapi)/)'],
    // Libraries whose hot loops name globals, loaded by Node itself (test/support/native).
    moduleNameMapper: { '^qrcode$': '<rootDir>/test/support/native/qrcode.cjs' },
};

/** @type {import('jest').Config} */
module.exports = {
    projects: [
        { ...shared, displayName: 'unit', roots: UNIT.map((dir) => `<rootDir>/${dir}`), testMatch: ['**/*.test.ts'] },
        {
            ...shared,
            displayName: 'replica',
            roots: ['<rootDir>/test'],
            testMatch: ['**/*.test.ts'],
            testPathIgnorePatterns: ['/node_modules/', ...UNIT.map((dir) => `<rootDir>/${dir}/`)],
            globalSetup: '<rootDir>/test/global-setup.cjs',
        },
    ],
    testTimeout: 600000,
    maxWorkers: 2,
    testSequencer: '<rootDir>/test/support/sequencer.cjs',
};
