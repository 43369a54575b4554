// The API reference, generated from the routes and the contract's schemas: OpenAPI 3.1 at
// /openapi.json and a readable page at /docs (plain HTML and CSS, no external requests).
import { z } from 'zod';

import { API_VERSION } from '../contract/http';
import { RULES } from '../contract/rules-text';
import { OUT_OF_CYCLES_RETRY_SECONDS } from './errors';
import type { Route } from './route';

type Json = Record<string, unknown>;

const ENVELOPE_ERROR: Json = {
    type: 'object',
    required: ['ok', 'error'],
    properties: { ok: { const: false }, error: { type: 'string' } },
};

/** Every route's 503: its canister is out of reach or, frozen, out of cycles until its operator adds some. */
const UNAVAILABLE = `the canister cannot be reached (retry with backoff), or it ran out of cycles (the message says so; \`Retry-After\`: ${OUT_OF_CYCLES_RETRY_SECONDS} s; nothing is lost)`;

/** Errors every route of an auth kind can give. */
const AUTH_ERRORS: Record<Route['auth'], Record<number, string>> = {
    none: {},
    keyOrSession: {
        400: 'X-Game-ID does not match the credential (or a body/path game does not), X-Game-ID missing with a session, an API key of another game sent along with a session, or a Bearer sent with another credential',
        401: '`Missing API key`, `Invalid API key` (unknown or rotated), `Invalid server key`, a key in the wrong header, or a dead session (K2: the only 401 a request with a session gets)',
        403: 'the game is deactivated (API key, server key; a session request gets 400)',
        503: UNAVAILABLE,
    },
    session: {
        400: 'X-Game-ID missing, both X-Session-Token and X-API-Key sent, or a server key sent along',
        401: 'no session, or a dead one (expired, logged out, account removed): sign in again; or a server key sent without a session (this route is for game clients)',
        503: UNAVAILABLE,
    },
    game: {
        400: 'X-Game-ID missing, or it does not match an API key sent along',
        401: 'a server key (Authorization: Bearer) sent: this route is for game clients',
        503: UNAVAILABLE,
    },
    server: {
        400: 'X-Game-ID does not match the game of the server key, or another credential sent along',
        401: 'no server key, `Invalid server key` (unknown, rotated or revoked), or the API key sent instead (a session instead: 400)',
        403: 'the game is deactivated',
        503: UNAVAILABLE,
    },
    developer: {
        401: 'no dashboard session cookie, or an ended session: sign in at /dashboard',
        403: "a write without the session's `X-CSRF-Token`, or from another origin",
        503: UNAVAILABLE,
    },
};

/** OpenAPI security requirements of each auth kind (alternatives are separate entries). */
const SECURITY: Record<Route['auth'], Json[]> = {
    none: [],
    keyOrSession: [{ apiKey: [] }, { session: [] }, { serverKey: [] }],
    session: [{ session: [] }],
    game: [],
    server: [{ serverKey: [] }],
    developer: [{ dashboardSession: [] }],
};

/** How the reference names each credential. */
const CREDENTIAL: Record<string, string> = {
    apiKey: '<code>X-API-Key</code>',
    session: '<code>X-Session-Token</code>',
    serverKey: '<code>Authorization: Bearer</code> (the server key)',
    dashboardSession: 'the dashboard session cookie <code>lb_dev</code>',
};

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
    const { $schema: _drop, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
    return json;
}

function operation(r: Route): Json {
    const parameters: Json[] = [];
    for (const [name, p] of Object.entries(r.params ?? {})) {
        parameters.push({
            name,
            in: 'path',
            required: true,
            description: p.description,
            schema: { type: 'string', pattern: p.pattern.source },
        });
    }
    if (r.query !== undefined) {
        const query = schemaOf(r.query, 'input') as { properties?: Record<string, Json> };
        for (const [name, schema] of Object.entries(query.properties ?? {})) {
            parameters.push({ name, in: 'query', required: false, schema, description: schema.description });
        }
    }
    if (r.auth === 'keyOrSession' || r.auth === 'server') {
        parameters.push({
            name: 'X-Game-ID',
            in: 'header',
            required: false,
            description:
                r.auth === 'server'
                    ? 'the game id; optional (must match the server key)'
                    : 'the game id; optional with an API key or the server key (must match it), required with a session',
            schema: { type: 'string' },
        });
    } else if (r.auth === 'session' || r.auth === 'game') {
        parameters.push({
            name: 'X-Game-ID',
            in: 'header',
            required: true,
            description: 'the game id',
            schema: { type: 'string' },
        });
    }
    if (r.auth === 'developer' && r.method !== 'get') {
        parameters.push({
            name: 'X-CSRF-Token',
            in: 'header',
            required: true,
            description: "the session's CSRF token (the `csrf` field of the dashboard's forms)",
            schema: { type: 'string' },
        });
    }
    const errors = { ...AUTH_ERRORS[r.auth], ...r.errors };
    const responses: Json = {
        200: {
            description: r.file === undefined ? 'success' : r.file.description,
            content:
                r.file === undefined
                    ? {
                          'application/json': {
                              schema: {
                                  type: 'object',
                                  required: ['ok', 'data'],
                                  properties: { ok: { const: true }, data: schemaOf(r.data, 'output') },
                              },
                          },
                      }
                    : { [r.file.mediaType]: { schema: { type: 'string' } } },
        },
    };
    for (const [status, when] of Object.entries(errors)) {
        responses[status] = {
            description: when,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        };
    }
    return {
        operationId: r.id,
        summary: r.summary,
        ...(r.description === undefined ? {} : { description: r.description }),
        security: SECURITY[r.auth],
        ...(parameters.length > 0 ? { parameters } : {}),
        ...(r.body === undefined
            ? {}
            : {
                  requestBody: {
                      required: true,
                      content: { 'application/json': { schema: schemaOf(r.body, 'input') } },
                  },
              }),
        responses,
    };
}

export function openApiDocument(routes: readonly Route[]): Json {
    const paths: Record<string, Json> = {};
    for (const r of routes) paths[r.path] = { ...paths[r.path], [r.method]: operation(r) };
    return {
        openapi: '3.1.0',
        info: {
            title: 'Game leaderboard service',
            version: API_VERSION,
            description: RULES.map((rule) => `**${rule.id}. ${rule.title}.** ${rule.text}`).join('\n\n'),
        },
        paths,
        components: {
            securitySchemes: {
                apiKey: {
                    type: 'apiKey',
                    in: 'header',
                    name: 'X-API-Key',
                    description: 'key_<gameId>_<digits>: identifies the game; not a secret',
                },
                session: {
                    type: 'apiKey',
                    in: 'header',
                    name: 'X-Session-Token',
                    description: "a signed-in player's sessionId",
                },
                serverKey: {
                    type: 'http',
                    scheme: 'bearer',
                    description:
                        "skey_<gameId>_<43 characters>: the game's secret server key, for its own backend only (never in a game client; browsers cannot send it cross-origin). Acts for any player of the game (the body's playerId) and reads GET /events",
                },
                dashboardSession: {
                    type: 'apiKey',
                    in: 'cookie',
                    name: 'lb_dev',
                    description: "a developer's dashboard session (HttpOnly, set by signing in at /dashboard)",
                },
            },
            schemas: { Error: ENVELOPE_ERROR },
        },
    };
}

// ---- the /docs page ----------------------------------------------------------------------------------

const escapeHtml = (text: string): string =>
    text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** `code` spans of the plain-text descriptions. */
const inline = (text: string): string => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

function operationHtml(path: string, method: string, op: Json): string {
    const params = (op.parameters as Json[] | undefined) ?? [];
    const body = (op.requestBody as { content: Record<string, { schema: Json }> } | undefined)?.content[
        'application/json'
    ].schema;
    const responses = op.responses as Record<
        string,
        { description: string; content: Record<string, { schema: Json }> }
    >;
    const json = responses[200].content['application/json'];
    const [fileType] = Object.keys(responses[200].content);
    const answer =
        json === undefined
            ? `<p>Response: <code>${escapeHtml(fileType)}</code>, ${inline(responses[200].description)}</p>`
            : `<details><summary>Response <code>data</code></summary><pre>${escapeHtml(
                  JSON.stringify((json.schema.properties as Record<string, Json>).data, null, 2),
              )}</pre></details>`;
    const security = (op.security as Json[]).map((s) => Object.keys(s)[0]);
    const rows = params
        .map(
            (p) =>
                `<tr><td><code>${escapeHtml(String(p.name))}</code></td><td>${p.in}</td><td>${inline(String(p.description ?? ''))}</td></tr>`,
        )
        .join('');
    const errors = Object.entries(responses)
        .filter(([status]) => status !== '200')
        .map(([status, r]) => `<tr><td>${status}</td><td>${inline(r.description)}</td></tr>`)
        .join('');
    return `<section class="op" id="${escapeHtml(String(op.operationId))}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code> <a class="anchor" href="#${escapeHtml(String(op.operationId))}">#</a></h3>
<p class="summary">${escapeHtml(String(op.summary))}</p>
${op.description === undefined ? '' : `<p>${inline(String(op.description))}</p>`}
<p class="auth">Credentials: ${security.length === 0 ? 'none' : security.map((s) => CREDENTIAL[s]).join(' or ')}</p>
${rows === '' ? '' : `<table><caption>Parameters</caption><tr><th>name</th><th>in</th><th>meaning</th></tr>${rows}</table>`}
${body === undefined ? '' : `<details open><summary>Request body</summary><pre>${escapeHtml(JSON.stringify(body, null, 2))}</pre></details>`}
${answer}
${errors === '' ? '' : `<table><caption>Errors</caption><tr><th>status</th><th>when</th></tr>${errors}</table>`}
</section>`;
}

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1d2433;background:#f7f8fb}
header,main{max-width:980px;margin:0 auto;padding:0 16px}
header{padding-top:24px}h1{margin:0 0 4px}h2{margin-top:40px;border-bottom:1px solid #d8dce6;padding-bottom:4px}
code,pre{font:13px/1.45 ui-monospace,Menlo,Consolas,monospace}pre{background:#fff;border:1px solid #d8dce6;border-radius:6px;padding:10px;overflow:auto}
.op{background:#fff;border:1px solid #d8dce6;border-radius:8px;padding:4px 16px 12px;margin:16px 0}
.method{display:inline-block;min-width:46px;text-align:center;border-radius:4px;color:#fff;font-size:13px;padding:1px 6px}
.get{background:#1f6feb}.post{background:#1a7f37}.put{background:#9a6700}.delete{background:#cf222e}
table{border-collapse:collapse;margin:8px 0;width:100%}caption{text-align:left;font-weight:600}td,th{border:1px solid #d8dce6;padding:4px 8px;text-align:left;vertical-align:top}
.rules dt{font-weight:600;margin-top:10px}.rules dd{margin-left:0}.anchor{color:#8b93a7;text-decoration:none}
nav ul{columns:2;padding-left:18px}@media (max-width:640px){nav ul{columns:1}}`;

export function docsPage(doc: Json): string {
    const info = doc.info as { version: string };
    const paths = doc.paths as Record<string, Record<string, Json>>;
    const ops = Object.entries(paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => ({ path, method, op })),
    );
    const toc = ops
        .map(
            ({ path, method, op }) =>
                `<li><a href="#${escapeHtml(String(op.operationId))}">${method.toUpperCase()} ${escapeHtml(path)}</a></li>`,
        )
        .join('');
    const rules = RULES.map(
        (r) => `<dt id="rule-${r.id}">${r.id}. ${escapeHtml(r.title)}</dt><dd>${inline(r.text)}</dd>`,
    ).join('');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>API reference: game leaderboard service</title><style>${STYLE}</style></head><body>
<header><h1>Game leaderboard service: API reference</h1><p>Version ${escapeHtml(info.version)}. Every response is <code>{ok: true, data}</code> or <code>{ok: false, error}</code>. Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). Web games: the typed JavaScript client, <a href="/client/README.md">@leaderboard/client</a>.</p></header>
<main><nav><h2>Endpoints</h2><ul>${toc}</ul></nav>
<h2>Rules</h2><dl class="rules">${rules}</dl>
<h2>Endpoints in detail</h2>${ops.map(({ path, method, op }) => operationHtml(path, method, op)).join('\n')}
</main></body></html>`;
}
