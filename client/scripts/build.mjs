// Builds @leaderboard/client into dist/: the ESM module for bundlers and Node (dist/index.js,
// verification split off into its own chunk), the browser bundle the gateway serves to pages
// (dist/browser/: minified, with @dfinity/response-verification's web build and its wasm loaded
// only on verify), and the type declarations, which must not refer to anything outside the
// package: the contract's types are written out in full into dist/types.d.ts. Prints the size.
/* global process, console */
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);
const esbuild = require('esbuild');
const ts = require('typescript');

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(here, 'dist');
const entry = join(here, 'src', 'index.ts');
const verifierWeb = require.resolve('@dfinity/response-verification/dist/web/web.js');

rmSync(dist, { recursive: true, force: true });

// ---- JavaScript ------------------------------------------------------------------------------
const shared = {
    bundle: true,
    format: 'esm',
    target: 'es2020',
    splitting: true,
    logLevel: 'warning',
    legalComments: 'none',
};
await esbuild.build({
    ...shared,
    entryPoints: { index: entry },
    outdir: dist,
    platform: 'neutral',
    chunkNames: 'chunks/[name]-[hash]',
    external: ['@dfinity/response-verification'],
});
const browser = join(dist, 'browser');
await esbuild.build({
    ...shared,
    entryPoints: { 'leaderboard-client': entry },
    outdir: browser,
    platform: 'browser',
    minify: true,
    chunkNames: '[name]-[hash]',
    alias: { '@dfinity/response-verification': verifierWeb },
});
// The web build fetches its wasm next to itself (new URL('web_bg.wasm', import.meta.url)).
cpSync(join(dirname(verifierWeb), 'web_bg.wasm'), join(browser, 'web_bg.wasm'));
// The README too, so that every gateway's API reference can link to it (/client/README.md).
cpSync(join(here, 'README.md'), join(browser, 'README.md'));

// ---- declarations ----------------------------------------------------------------------------
const tmp = join(tmpdir(), `leaderboard-client-dts-${process.pid}`);
const program = ts.createProgram([entry], {
    declaration: true,
    emitDeclarationOnly: true,
    outDir: tmp,
    rootDir: resolve(here, '..'),
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
});
const diagnostics = ts.getPreEmitDiagnostics(program);
if (diagnostics.length > 0) {
    const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => here, getNewLine: () => '\n' };
    console.error(ts.formatDiagnostics(diagnostics, host));
    process.exit(1);
}
program.emit();
const emitted = join(tmp, 'client', 'src');
// Relative specifiers get their extension, as Node's ESM resolution (moduleResolution nodenext) needs.
const withExtensions = (text) => text.replace(/(from |import\()'(\.\/[^']+)'/g, "$1'$2.js'");
for (const name of readdirSync(emitted)) {
    if (name !== 'types.d.ts')
        writeFileSync(join(dist, name), withExtensions(readFileSync(join(emitted, name), 'utf8')));
}
rmSync(tmp, { recursive: true, force: true });

// types.d.ts: every alias of src/types.ts written out structurally (no zod, no contract paths).
const checker = program.getTypeChecker();
const typesFile = program.getSourceFile(join(here, 'src', 'types.ts'));
const printed = new Set();
function print(type, depth = 0) {
    if (depth > 20) throw new Error('type too deep to print');
    const pad = '    '.repeat(depth + 1);
    if (type.isUnion()) {
        const parts = [...new Set(type.types.map((t) => print(t, depth)))];
        const bool = parts.includes('true') && parts.includes('false');
        return (bool ? ['boolean', ...parts.filter((p) => p !== 'true' && p !== 'false')] : parts).join(' | ');
    }
    if (checker.isArrayType(type)) return `Array<${print(checker.getTypeArguments(type)[0], depth)}>`;
    if (type.flags & ts.TypeFlags.Object) {
        const lines = [];
        const index = checker.getIndexInfoOfType(type, ts.IndexKind.String);
        if (index) lines.push(`${pad}[key: string]: ${print(index.type, depth + 1)};`);
        for (const p of checker.getPropertiesOfType(type)) {
            const optional = (p.flags & ts.SymbolFlags.Optional) !== 0;
            let t = checker.getTypeOfSymbol(p);
            if (optional) t = checker.getNonNullableType(t);
            lines.push(`${pad}${JSON.stringify(p.name)}${optional ? '?' : ''}: ${print(t, depth + 1)};`);
        }
        return `{\n${lines.join('\n')}\n${'    '.repeat(depth)}}`;
    }
    const text = checker.typeToString(type);
    if (/[<]|\bimport\(|\$brand/.test(text)) throw new Error(`cannot print type ${text}`);
    printed.add(text);
    return text;
}
const out = ["// The API's JSON shapes, written out from the contract's schemas by scripts/build.mjs (do not edit)."];
for (const stmt of typesFile.statements) {
    if (!ts.isTypeAliasDeclaration(stmt)) continue;
    const name = stmt.name.text;
    if (name === 'Plain') {
        out.push(stmt.getText(typesFile).replace(/^export /, 'export '));
        continue;
    }
    const type = checker.getTypeFromTypeNode(stmt.type);
    out.push(`export type ${name} = ${print(type)};`);
}
writeFileSync(join(dist, 'types.d.ts'), `${out.join('\n\n')}\n`);

// Nothing in the declarations may point outside the package.
for (const name of readdirSync(dist)) {
    if (!name.endsWith('.d.ts')) continue;
    const text = readFileSync(join(dist, name), 'utf8');
    const outside = /from '(\.\.\/[^']*|zod)'|import\("(\.\.\/[^"]*|zod)"\)/.exec(text);
    if (outside) throw new Error(`dist/${name} refers outside the package: ${outside[0]}`);
}

// ---- size ------------------------------------------------------------------------------------
const minified = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    target: 'es2020',
    minify: true,
    write: false,
    platform: 'browser',
    external: ['./verify', '@dfinity/response-verification'],
    legalComments: 'none',
});
const code = minified.outputFiles[0].contents;
const size = { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length };
writeFileSync(join(dist, 'size.json'), `${JSON.stringify(size)}\n`);
mkdirSync(dist, { recursive: true });
console.log(
    `@leaderboard/client: ${(size.gzipped / 1024).toFixed(1)} KB minified + gzipped (${(size.minified / 1024).toFixed(1)} KB minified), without verification (loaded on demand)`,
);
