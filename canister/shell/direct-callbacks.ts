// Manual methods called directly instead of through Azle 0.33's per-call async wrapper (its
// Candid serde steps, two awaits and a microtask drain in JavaScript: ~120 K of the ~130 K
// instructions an empty query costs, against ~10 K for a direct call). A manual method reads its
// argument and replies itself, so the wrapper does nothing for it but cost; what it does with an
// error thrown (a trap) is kept, in Azle's words.
import { trap } from 'azle';

/** A manual method's body: it replies itself, at once or once its promise settles. */
export type ManualMethod = () => void | Promise<void>;

/** What Azle 0.33 keeps on the canister class (its build's `getCanisterClassMeta`). */
interface AzleClassMeta {
    callbacks: Record<string, () => unknown>;
    methodMeta: { queries?: Array<{ name: string; index: number }>; updates?: Array<{ name: string; index: number }> };
}

/**
 * Replaces the callbacks Azle registered for `methods` (its decorators, already run on
 * `instance`) with direct calls. Nothing changes where Azle's class meta is not found (another
 * Azle than 0.33: its own callbacks stay).
 */
export function callDirectly(instance: object, methods: ReadonlyMap<string, ManualMethod>): void {
    const meta = (instance.constructor as { _azleCanisterClassMeta?: AzleClassMeta })._azleCanisterClassMeta;
    if (meta?.callbacks === undefined || meta.methodMeta === undefined) return;
    for (const { name, index } of [...(meta.methodMeta.queries ?? []), ...(meta.methodMeta.updates ?? [])]) {
        const method = methods.get(name);
        const key = String(index);
        if (method !== undefined && typeof meta.callbacks[key] === 'function') meta.callbacks[key] = direct(method);
    }
}

function direct(method: ManualMethod): () => void | Promise<void> {
    return () => {
        try {
            const out = method();
            if (out !== undefined) return out.catch(uncaught);
        } catch (e) {
            uncaught(e);
        }
    };
}

/**
 * Azle's handleUncaughtError (not exported): a trap with the error's name, message and stack,
 * except for the rejection Azle sends into an inter-canister call's cleanup callback.
 */
function uncaught(e: unknown): void {
    const raw = e as { type?: unknown; rejectCode?: unknown; rejectMessage?: unknown } | null | undefined;
    if (
        raw?.type === 'CleanupCallback' &&
        raw.rejectCode === 10_001 &&
        raw.rejectMessage === 'executing within cleanup callback'
    )
        return;
    if (e instanceof Error) trap(`Uncaught ${e.name}: ${e.message}\n${e.stack}`);
    const error = new Error(e as string);
    trap(`Uncaught: ${error.message}\n${error.stack}`);
}
