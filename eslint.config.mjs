// ESLint (flat config) for the whole repository; formatting is Prettier's job (.prettierrc.json).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
    {
        ignores: [
            'node_modules/',
            '.azle/',
            '.dfx/',
            'data/',
            'coverage/',
            '.scratch/',
            'test/replica/canisters/**/.azle/',
        ],
    },
    js.configs.recommended,
    ...tseslint.configs.recommended,
    {
        languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
        rules: {
            eqeqeq: ['error', 'always'],
            'no-control-regex': 'off', // the contract's rules match control characters on purpose
            '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
            '@typescript-eslint/no-unused-vars': [
                'error',
                { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
            ],
        },
    },
    {
        // Tests poke at JSON of any shape.
        files: ['test/**/*.ts'],
        rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
    },
    {
        files: ['**/*.cjs', 'jest.config.js'],
        languageOptions: {
            sourceType: 'commonjs',
            globals: {
                require: 'readonly',
                module: 'writable',
                __dirname: 'readonly',
                __filename: 'readonly',
                process: 'readonly',
                console: 'readonly',
            },
        },
        rules: { '@typescript-eslint/no-require-imports': 'off' },
    },
    prettier,
);
