// The field tables of docs/webhooks.md, made from the event schemas of contract/events.ts so the
// page cannot drift: between `<!-- fields:NAME -->` and `<!-- /fields:NAME -->` markers (NAME a
// kind, `common` or `entry`). test/docs/webhooks.test.ts fails when the page differs; by hand:
// `node --import tsx test/docs/event-fields.ts` rewrites them.
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { z } from 'zod';

import { EVENT_KINDS } from '../../contract/event-log';
import { EventEntry, GameEvent } from '../../contract/events';
import { Nanoseconds } from '../../contract/schemas';

export const FIELDS_PAGE = 'docs/webhooks.md';
/** The fields every event has: listed once, above the kinds. */
const COMMON = ['id', 'seq', 'gameId', 'kind', 'at'];

/** Words for the fields the schemas leave undescribed (a field with neither fails the test). */
const FALLBACK: Record<string, string> = {
    gameId: 'the game',
    kind: 'the event kind (below)',
    leader: 'the new leader (rank 1)',
    totalEntries: "the board's entries when the period closed",
    score: 'the score',
    streak: 'the streak',
    rank: 'the rank on the board',
    nickname: 'the nickname shown on the board',
    reason: 'the reason given',
    metadata: 'the metadata sent with the submit (when it had any)',
};

type Schema = z.ZodType & { def: { type: string; innerType?: Schema; element?: Schema; values?: unknown[] } };

/** An entry, also when a field describes it (`.meta()` makes a new schema of the same shape). */
const isEntry = (s: Schema): boolean =>
    s.def.type === 'object' &&
    JSON.stringify(Object.keys((s as unknown as z.ZodObject).shape)) === JSON.stringify(Object.keys(EventEntry.shape));

function typeOf(s: Schema): string {
    if (s === (Nanoseconds as unknown)) return 'integer (ns)';
    if (isEntry(s)) return 'entry';
    switch (s.def.type) {
        case 'optional':
            return `${typeOf(s.def.innerType!)}, optional`;
        case 'array':
            return isEntry(s.def.element!) ? 'list of entries' : 'list';
        case 'number':
            return 'integer';
        case 'literal':
            return 'string';
        case 'record':
            return 'object';
        default:
            return s.def.type;
    }
}

const describe = (name: string, s: Schema): string | undefined =>
    s.description ?? (s.def.type === 'optional' ? s.def.innerType!.description : undefined) ?? FALLBACK[name];

function rows(shape: Record<string, Schema>, names: string[]): string {
    const lines = ['| field | type | meaning |', '|---|---|---|'];
    for (const name of names) {
        const s = shape[name];
        const meaning = describe(name, s);
        if (meaning === undefined) throw new Error(`no description for the field ${name}`);
        lines.push(
            `| \`${name}\` | ${typeOf(s)} | ${meaning.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;')} |`,
        );
    }
    return lines.join('\n');
}

/** Every table of the page, by marker name. */
export function fieldTables(): Record<string, string> {
    const out: Record<string, string> = {};
    const byKind = new Map(GameEvent.options.map((o) => [o.shape.kind.value as string, o.shape]));
    const first = byKind.get(EVENT_KINDS[0]) as unknown as Record<string, Schema>;
    out.common = rows(first, COMMON);
    out.entry = rows(EventEntry.shape as unknown as Record<string, Schema>, Object.keys(EventEntry.shape));
    for (const kind of EVENT_KINDS) {
        const shape = byKind.get(kind) as unknown as Record<string, Schema>;
        out[kind] = rows(
            shape,
            Object.keys(shape).filter((k) => !COMMON.includes(k)),
        );
    }
    return out;
}

/** `text` with each marked table replaced by the generated one. */
export function fillFields(text: string, tables: Record<string, string> = fieldTables()): string {
    return text.replace(/<!-- fields:([a-z_]+) -->\n(?:[\s\S]*?\n)?<!-- \/fields:\1 -->/g, (_, name: string) => {
        if (!(name in tables)) throw new Error(`no field table named ${name}`);
        return `<!-- fields:${name} -->\n${tables[name]}\n<!-- /fields:${name} -->`;
    });
}

if (require.main === module) {
    const file = path.join(__dirname, '..', '..', FIELDS_PAGE);
    fs.writeFileSync(file, fillFields(fs.readFileSync(file, 'utf8')));
}
