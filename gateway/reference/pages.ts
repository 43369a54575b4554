// The API reference pages: /docs renders /openapi.json with Swagger UI (swagger-ui-dist, served
// from its package under /docs/assets), and /docs/rules lists the contract's rules, each at its
// anchor rule-<id>. Swagger UI over Redoc and Scalar: of the three only it renders with no request
// leaving the machine (Redoc's bundle always loads its logo from a CDN and builds its search
// worker from a blob: URL; Scalar's asks its registry through a proxy of its own), under a CSP of
// 'self' scripts without 'unsafe-eval'. It is released monthly by SmartBear, readable at 390 px,
// 1.9 MB (0.5 MB gzipped; Redoc's 1.1 MB, Scalar's 3.6 MB), with no dependency at run time (its
// one, scarf, reports installs: package.json turns it off).
import * as path from 'node:path';

import { Router, type Response } from 'express';

import { RULES } from '../../contract/rules-text';
import { RULES_PAGE } from './openapi';
import { escapeHtml, html, Html } from '../pages/layout';

const SWAGGER_UI = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** What /docs/assets serves: the renderer's bundle and style, and the page's own script. */
const ASSETS: Record<string, { file: string; type: string }> = {
    'swagger-ui-bundle.js': { file: path.join(SWAGGER_UI, 'swagger-ui-bundle.js'), type: 'application/javascript' },
    'swagger-ui.css': { file: path.join(SWAGGER_UI, 'swagger-ui.css'), type: 'text/css' },
    'reference.js': { file: path.join(__dirname, 'browser.js'), type: 'application/javascript' },
};

/** Scripts and styles from this origin only (Swagger UI sets style attributes), no eval, no frames. */
const CSP =
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1d2433;background:#f7f8fb}
main{max-width:980px;margin:0 auto;padding:16px}
code{font:14px/1.45 ui-monospace,Menlo,Consolas,monospace;background:#eef1f6;border-radius:4px;padding:0 3px}
dt{font-weight:600;margin-top:14px}dd{margin-left:0}a{color:#3451b2}.anchor{color:#8b93a7;text-decoration:none}`;

function sendHtml(res: Response, body: string): void {
    res.set({
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-cache',
        'X-Frame-Options': 'DENY',
        'Content-Security-Policy': CSP,
    }).send(body);
}

const head = (title: string, extra = ''): string =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,"><title>${escapeHtml(title)}</title>${extra}</head>`;

/** On a phone the operation's path takes the row and its id gives way (the deep link still names it). */
const PHONE_STYLE = `@media (max-width:640px){
.swagger-ui .opblock .opblock-summary-operation-id{display:none}
.swagger-ui .opblock .opblock-summary-path{max-width:none;flex:1 1 auto;word-break:break-all}
.swagger-ui .info .title{font-size:28px}}`;

const REFERENCE_PAGE =
    head(
        'API reference: game leaderboard service',
        `<link rel="stylesheet" href="/docs/assets/swagger-ui.css"><style>${PHONE_STYLE}</style>`,
    ) +
    `<body><noscript>The reference needs JavaScript; its document is <a href="/openapi.json">/openapi.json</a> and the rules are at <a href="${RULES_PAGE}">${RULES_PAGE}</a>.</noscript>
<div id="reference"></div><script src="/docs/assets/swagger-ui-bundle.js"></script><script src="/docs/assets/reference.js"></script></body></html>`;

/** `code` spans of the rules' plain text. */
const inline = (text: string): string => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

const RULES_HTML =
    head('Rules: game leaderboard service', `<style>${STYLE}</style>`) +
    html`<body><main><h1>Game leaderboard service: rules</h1>
<p>The behaviour every route keeps, cited by id across the <a href="/docs">API reference</a> (<a href="/openapi.json">/openapi.json</a>).</p>
<dl>${RULES.map(
        (r) =>
            html`<dt id="rule-${r.id}">${r.id}. ${r.title} <a class="anchor" href="#rule-${r.id}">#</a></dt>
                <dd>${new Html(inline(r.text))}</dd>`,
    )}</dl></main></body></html>`.text;

export function referencePages(): Router {
    const router = Router();
    router.get('/docs', (_req, res) => sendHtml(res, REFERENCE_PAGE));
    router.get(RULES_PAGE, (_req, res) => sendHtml(res, RULES_HTML));
    router.get('/docs/assets/:name', (req, res, next) => {
        const asset = Object.hasOwn(ASSETS, req.params.name) ? ASSETS[req.params.name] : undefined;
        if (asset === undefined) return next();
        res.set('Cache-Control', 'public, max-age=3600').type(asset.type).sendFile(asset.file, { dotfiles: 'allow' });
    });
    return router;
}
