// ESLint (flat config) for the whole repository, with the parts' boundaries; formatting is
// Prettier's job (.prettierrc.json).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const ROOT = path.dirname(fileURLToPath(import.meta.url));

/**
 * Which parts (top-level folders) each part may import: the canister and the gateway only the
 * contract; the replica, a stand-in for any IC, nothing of ours; the local stack what it runs.
 */
export const MAY_IMPORT = {
    contract: [],
    canister: ['contract'],
    gateway: ['contract'],
    replica: [],
    client: ['contract'],
    local: ['contract', 'gateway', 'replica'],
    scripts: ['contract', 'gateway', 'replica'],
    test: ['contract', 'canister', 'gateway', 'replica', 'local', 'scripts', 'client'],
};

const partOf = (file) => {
    const rel = path.relative(ROOT, file);
    return rel.startsWith('..') || !rel.includes(path.sep) ? undefined : rel.split(path.sep)[0];
};

/** An import of another part that MAY_IMPORT does not declare is an error. */
const boundaries = {
    meta: {
        type: 'problem',
        schema: [],
        messages: {
            crossing: "'{{from}}' may not import from '{{to}}' ({{spec}}): see MAY_IMPORT in eslint.config.mjs",
        },
    },
    create(context) {
        const file = context.filename;
        const from = partOf(file);
        if (from === undefined || !(from in MAY_IMPORT)) return {};
        const check = (node, spec) => {
            if (typeof spec !== 'string' || !spec.startsWith('.')) return;
            const target = path.resolve(path.dirname(file), spec);
            const to = partOf(target);
            if (to === undefined || to === from || MAY_IMPORT[from].includes(to)) return;
            context.report({ node, messageId: 'crossing', data: { from, to, spec } });
        };
        return {
            ImportDeclaration: (node) => check(node, node.source.value),
            ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
            ExportAllDeclaration: (node) => check(node, node.source.value),
            ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
            CallExpression: (node) =>
                node.callee.type === 'Identifier' &&
                node.callee.name === 'require' &&
                node.arguments[0]?.type === 'Literal' &&
                check(node, node.arguments[0].value),
        };
    },
};

export default tseslint.config(
    {
        ignores: [
            'node_modules/',
            '.azle/',
            '.dfx/',
            'data/',
            'coverage/',
            '.scratch/',
            'client/dist/',
            'test/replica/canisters/**/.azle/',
        ],
    },
    js.configs.recommended,
    ...tseslint.configs.recommended,
    {
        languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
        plugins: { parts: { rules: { boundaries } } },
        rules: {
            'parts/boundaries': 'error',
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
