// The canister's Candid entry points: one per row of the contract's METHODS table (`query` or
// `update`, `(text) -> (text)`, a packed rank read's `(text) -> (blob)`, a shard wasm chunk's
// `(blob) -> (text)`), each running its use case through `handle`. Azle's decorators
// are applied here to the table's rows, so the `.did` follows the table; each is then called
// directly, without Azle's per-call wrapper (direct-callbacks.ts).
import { IDL, query, update } from 'azle';

import { METHODS, isPacked, takesBytes, type Method } from '../../contract/canister';
import { replyBytes } from '../codecs';
import { callDirectly, type ManualMethod } from './direct-callbacks';
import { handle, type UseCases, type Wire } from './handle';
import { packedRankReply, packedRankRequest } from './packed-ranks';
import { shardChunkRequest } from './shard-chunks';

const PACKED_WIRE: Wire = { request: packedRankRequest, reply: packedRankReply };
const BYTES_WIRE: Wire = { request: shardChunkRequest, reply: replyBytes };

type Initializer = (this: object) => void;

/**
 * Registers an entry point for every method of the table with its use case, and `others` (the
 * class's own manual methods) beside them; the returned function runs in the canister class's
 * constructor (where Azle collects its methods).
 */
export function entryPoints(useCases: UseCases, others: Record<string, ManualMethod> = {}): (instance: object) => void {
    const initializers: Initializer[] = [];
    const entries = new Map<string, ManualMethod>(Object.entries(others));
    for (const method of Object.keys(METHODS) as Method[]) {
        const wire = isPacked(method) ? PACKED_WIRE : takesBytes(method) ? BYTES_WIRE : undefined;
        const entry = (): void | Promise<void> => handle(method, useCases[method] as UseCases[Method], wire);
        entries.set(method, entry);
        const decorate = METHODS[method].kind === 'query' ? query : update;
        const context = {
            kind: 'method',
            name: method,
            static: false,
            private: false,
            metadata: {},
            access: { has: () => true, get: () => entry },
            addInitializer: (initializer: Initializer) => initializers.push(initializer),
        } as unknown as ClassMethodDecoratorContext<object, () => void | Promise<void>>;
        const reply = isPacked(method) ? IDL.Vec(IDL.Nat8) : IDL.Text;
        decorate([takesBytes(method) ? IDL.Vec(IDL.Nat8) : IDL.Text], reply, { manual: true })(entry, context);
    }
    return (instance) => {
        for (const initializer of initializers) initializer.call(instance);
        callDirectly(instance, entries);
    };
}
