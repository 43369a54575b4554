/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    // jose, openid-client and oauth4webapi ship only ES modules: ts-jest compiles them too.
    '^.+\\.[tj]s$': ['ts-jest', { tsconfig: { ...require('./tsconfig.json').compilerOptions, module: 'commonjs', moduleResolution: 'node10', isolatedModules: true, allowJs: true } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(jose|openid-client|oauth4webapi)/)'],
  globalSetup: '<rootDir>/test/global-setup.cjs',
  testTimeout: 120000,
  maxWorkers: 2,
};
