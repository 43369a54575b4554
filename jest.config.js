/** @type {import('jest').Config} */
module.exports = {
    testEnvironment: 'node',
    roots: ['<rootDir>/test'],
    testMatch: ['**/*.test.ts'],
    transform: {
        '^.+\\.ts$': [
            'ts-jest',
            {
                tsconfig: {
                    ...require('./tsconfig.json').compilerOptions,
                    module: 'commonjs',
                    moduleResolution: 'node10',
                    isolatedModules: true,
                },
            },
        ],
    },
    globalSetup: '<rootDir>/test/global-setup.cjs',
    testTimeout: 120000,
    maxWorkers: 2,
};
