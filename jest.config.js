/** @type {import('jest').Config} */
module.exports = {
    testEnvironment: 'node',
    roots: ['<rootDir>/test'],
    testMatch: ['**/*.test.ts'],
    transform: {
        // .js too: the ESM-only packages the tests use as relying party (openid-client, jose,
        // oauth4webapi) are compiled to CommonJS like the tests themselves.
        '^.+\\.[tj]s$': [
            'ts-jest',
            {
                tsconfig: {
                    ...require('./tsconfig.json').compilerOptions,
                    module: 'commonjs',
                    moduleResolution: 'node10',
                    isolatedModules: true,
                    allowJs: true,
                },
            },
        ],
    },
    transformIgnorePatterns: ['/node_modules/(?!(jose|openid-client|oauth4webapi)/)'],
    globalSetup: '<rootDir>/test/global-setup.cjs',
    testTimeout: 120000,
    maxWorkers: 2,
};
