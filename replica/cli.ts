// `npm run replica`: starts the local replica, installs or upgrades the canisters of dfx.json
// (or the ones named with --canister), and prints their ids and URLs.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

import { Principal } from '@dfinity/principal';

import { startReplica, type Replica } from './replica';

const HELP = `Usage: npm run replica -- [options]

  --port <n>              HTTP port on 127.0.0.1 (default 4943, 0 = any free port)
  --data-dir <dir>        state directory (default ./data/replica)
  --canister <name=wasm>  install this wasm as <name> (repeatable; default: the canisters of dfx.json)
  --arg <name=hex>        Candid-encoded init/upgrade argument for <name>, in hex (default: no arguments)
  --test-mode             manual canister clock, moved only at POST /_/time (loopback only)
  --start-time <iso>      clock start for a fresh data directory (test mode)
  --fsync                 fsync the log after every round (survive power loss, slower)
  --round-ms <n>          IC-like latency: each round's results (call replies, certified state) are
                          visible only n ms after it ran; queries answer at once (default 0)
  --json                  print one JSON line when ready (for scripts)
  --quiet                 do not print canister debug output
`;

export interface InstalledCanister {
    name: string;
    id: string;
    url: string;
}

/** Installs each named wasm (first start) or upgrades it when the module changed. */
export async function deploy(
    replica: Replica,
    canisters: Array<{ name: string; wasm: Uint8Array; arg?: Uint8Array }>,
): Promise<InstalledCanister[]> {
    const ids = { ...((replica.getExtra('canisterIds') as Record<string, string> | undefined) ?? {}) };
    const out: InstalledCanister[] = [];
    for (const { name, wasm, arg } of canisters) {
        let id =
            ids[name] !== undefined && replica.subnet.canisters.has(ids[name])
                ? Principal.fromText(ids[name])
                : undefined;
        if (id === undefined) {
            // Each its own controller too, as `npm run deploy` makes it: it may read its own canister_status.
            id = replica.createCanister(undefined, undefined, { selfControlled: true });
            ids[name] = id.toText();
            replica.setExtra('canisterIds', ids);
        }
        const canister = replica.subnet.canisters.get(id.toText())!;
        const module = replica.subnet.compile(wasm);
        const installed = canister.system.moduleHash;
        if (installed === undefined) await replica.installCode(id, wasm, { mode: 'install', arg });
        else if (Buffer.compare(Buffer.from(installed), Buffer.from(module.hash)) !== 0)
            await replica.installCode(id, wasm, { mode: 'upgrade', arg });
        out.push({ name, id: id.toText(), url: `${replica.url}/?canisterId=${id.toText()}` });
    }
    return out;
}

function dfxCanisters(root: string): Array<{ name: string; wasm: Uint8Array }> {
    const dfx = JSON.parse(fs.readFileSync(path.join(root, 'dfx.json'), 'utf8')) as {
        canisters: Record<string, unknown>;
    };
    return Object.keys(dfx.canisters).map((name) => {
        const file = path.join(root, '.azle', name, `${name}.wasm`);
        if (!fs.existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
        return { name, wasm: new Uint8Array(fs.readFileSync(file)) };
    });
}

async function main(): Promise<void> {
    const { values } = parseArgs({
        options: {
            port: { type: 'string', default: '4943' },
            'data-dir': { type: 'string', default: path.join('data', 'replica') },
            canister: { type: 'string', multiple: true },
            arg: { type: 'string', multiple: true },
            'test-mode': { type: 'boolean', default: false },
            'start-time': { type: 'string' },
            fsync: { type: 'boolean', default: false },
            'round-ms': { type: 'string', default: '0' },
            json: { type: 'boolean', default: false },
            quiet: { type: 'boolean', default: false },
            help: { type: 'boolean', default: false },
        },
    });
    if (values.help) {
        process.stdout.write(HELP);
        return;
    }
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid --port ${values.port}`);
    const roundMs = Number(values['round-ms']);
    if (!Number.isInteger(roundMs) || roundMs < 0 || roundMs > 60_000)
        throw new Error(`Invalid --round-ms ${values['round-ms']}: an integer from 0 to 60000`);
    const startTime =
        values['start-time'] === undefined ? undefined : BigInt(Date.parse(values['start-time'])) * 1_000_000n;
    const replica = await startReplica({
        dataDir: path.resolve(values['data-dir']),
        port,
        testMode: values['test-mode'],
        startTime,
        fsync: values.fsync,
        roundMs,
        log: values.quiet ? () => undefined : undefined,
    });
    const wanted =
        values.canister === undefined
            ? dfxCanisters(process.cwd())
            : values.canister.map((spec) => {
                  const [name, file] = spec.split('=');
                  if (name === undefined || file === undefined)
                      throw new Error(`--canister expects name=path.wasm, got ${spec}`);
                  return { name, wasm: new Uint8Array(fs.readFileSync(file)) };
              });
    const args = new Map(
        (values.arg ?? []).map((spec) => {
            const [name, hex] = spec.split('=');
            if (name === undefined || hex === undefined || !/^([0-9a-f]{2})*$/i.test(hex))
                throw new Error(`--arg expects name=hex, got ${spec}`);
            return [name, new Uint8Array(Buffer.from(hex, 'hex'))];
        }),
    );
    const installed = await deploy(
        replica,
        wanted.map((c) => ({ ...c, arg: args.get(c.name) })),
    );
    if (values.json) {
        process.stdout.write(
            `${JSON.stringify({ url: replica.url, rootKey: Buffer.from(replica.rootKey).toString('hex'), canisters: installed })}\n`,
        );
    } else {
        console.log(`Replica listening on ${replica.url} (data in ${path.resolve(values['data-dir'])})`);
        for (const c of installed) console.log(`  ${c.name}: ${c.id}  ${c.url}`);
    }
    let stopping = false;
    const stop = (): void => {
        if (stopping) return;
        stopping = true;
        void replica.stop().then(() => process.exit(0));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
}

if (require.main === module) {
    main().catch((e: unknown) => {
        console.error(e instanceof Error ? e.message : e);
        process.exit(1);
    });
}
