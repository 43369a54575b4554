// The API reference, generated from the routes and the contract's schemas: the OpenAPI 3.1
// document served at /openapi.json, which the /docs page renders (./pages.ts).
import { z } from 'zod';

import { API_VERSION } from '../../contract/http';
import { RULES } from '../../contract/rules-text';
import { OUT_OF_CYCLES_RETRY_SECONDS } from '../http/errors';
import type { Route } from '../routes/route';

/** Where the rules have their own page, each at its anchor `rule-<id>`. */
export const RULES_PAGE = '/docs/rules';

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

/** Markdown's special characters as text, outside `code` spans (the rules' prose is not markdown). */
const markdownText = (text: string): string =>
    text
        .split('`')
        .map((part, i) => (i % 2 === 1 ? part : part.replace(/[\\*_[\]<>]/g, '\\$&')))
        .join('`');

/**
 * The reference's introduction: the envelope, then an index of the rules, each linking to its
 * anchor on /docs/rules (their full text is there, and in `x-rules` for programs).
 */
function infoDescription(): string {
    const index = RULES.map((r) => `[${r.id} ${markdownText(r.title)}](${RULES_PAGE}#rule-${r.id})`).join(' · ');
    return [
        'Every response is `{ok: true, data}` or `{ok: false, error}`. Web games: the typed JavaScript client, [@leaderboard/client](/client/README.md).',
        `**Rules**, the behaviour every route keeps, cited by id ([all on one page](${RULES_PAGE})): ${index}.`,
    ].join('\n\n');
}

export function openApiDocument(routes: readonly Route[]): Json {
    const paths: Record<string, Json> = {};
    for (const r of routes) paths[r.path] = { ...paths[r.path], [r.method]: operation(r) };
    return {
        openapi: '3.1.0',
        info: {
            title: 'Game leaderboard service',
            version: API_VERSION,
            description: infoDescription(),
            'x-rules': RULES,
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
