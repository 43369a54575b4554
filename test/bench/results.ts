// The bench's figures for readers: bench/results/latest.json (every row measured) and two SVG
// plots drawn with Vega-Lite in Node (no browser): throughput against connections, and the
// canister's cost against players on a log scale. readme.ts makes the pages' tables from the JSON.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import type { BackupRow } from './backup.bench';
import type { CanisterResults } from './canister.bench';
import type { DeliveryRow } from './delivery.bench';
import type { ServiceRow, ShardServiceRow } from './service.bench';
import type { ShardResults } from './shards.bench';
import type { TrafficRow } from './traffic.bench';

/** The shards parts' figures: a game's calls on a shard (and memory per player there), and the service with 1 and 2 shards. */
export interface ShardFigures {
    canister?: ShardResults;
    service?: ShardServiceRow[];
}

export const RESULTS_DIR = path.join(__dirname, '..', '..', 'bench', 'results');

async function svg(spec: object): Promise<string> {
    // ESM with top-level await: loaded with import(), not require().
    const vega = await import('vega');
    const vl = await import('vega-lite');
    const compiled = vl.compile(spec as Parameters<typeof vl.compile>[0]).spec;
    return new vega.View(vega.parse(compiled), { renderer: 'none' }).toSVG();
}

const LABEL: Record<ServiceRow['request'], string> = { submit: 'submits', read: 'top-100 reads', rank: 'rank reads' };

/** A line chart with both axes on a log scale, one line per `series` value, as an SVG file. */
async function logLogChart(
    file: string,
    o: { title: string; values: object[]; x: [string, string]; y: [string, string]; series: string; height: number },
): Promise<void> {
    const axis = ([field, title]: [string, string]) => ({
        field,
        title,
        type: 'quantitative',
        scale: { type: 'log' },
    });
    const spec = {
        title: o.title,
        width: 560,
        height: o.height,
        data: { values: o.values },
        mark: { type: 'line', point: true },
        encoding: {
            x: axis(o.x),
            y: axis(o.y),
            color: { field: o.series, type: 'nominal', title: null, legend: { orient: 'right', labelLimit: 400 } },
        },
    };
    fs.writeFileSync(path.join(RESULTS_DIR, file), await svg(spec));
}

/** Writes the figures; a part not measured in this run (undefined) keeps its saved figures. */
export async function writeResults(
    service: ServiceRow[] | undefined,
    canister: Partial<CanisterResults> | CanisterResults,
    delivery?: DeliveryRow[],
    shards: ShardFigures = {},
    backup?: BackupRow[],
    traffic?: TrafficRow[],
): Promise<void> {
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    const file = path.join(RESULTS_DIR, 'latest.json');
    const saved = fs.existsSync(file)
        ? (JSON.parse(fs.readFileSync(file, 'utf8')) as {
              service: ServiceRow[];
              delivery?: DeliveryRow[];
              canister: CanisterResults;
              shards?: ShardFigures;
              backup?: BackupRow[];
              traffic?: TrafficRow[];
          })
        : undefined;
    const merged = {
        service: service ?? saved?.service ?? [],
        delivery: delivery ?? saved?.delivery ?? [],
        canister: { ...saved?.canister, ...canister } as CanisterResults,
        shards: {
            canister: shards.canister ?? saved?.shards?.canister,
            service: shards.service ?? saved?.shards?.service,
        },
        backup: backup ?? saved?.backup,
        traffic: traffic ?? saved?.traffic,
    };
    const machine = { cores: os.cpus().length, cpu: os.cpus()[0]?.model ?? '', node: process.version };
    fs.writeFileSync(file, `${JSON.stringify({ measured: new Date().toISOString(), machine, ...merged }, null, 2)}\n`);
    if (merged.canister.instructions !== undefined) await plot(merged.service, merged.canister, machine.cores);
}

async function plot(service: ServiceRow[], canister: CanisterResults, cores: number): Promise<void> {
    await logLogChart('throughput.svg', {
        title: `Requests per second against concurrent connections (${cores} cores)`,
        values: service.map((r) => ({
            series: `${r.target === 'redis' ? 'Express + Redis' : 'this service'}, ${LABEL[r.request]}${r.roundMs > 0 ? `, ${r.roundMs} ms rounds` : ''}`,
            connections: r.connections,
            perSecond: r.perSecond,
        })),
        x: ['connections', 'connections'],
        y: ['perSecond', 'requests per second'],
        series: 'series',
        height: 320,
    });
    await logLogChart('cost.svg', {
        title: 'Canister cost per call against players per game (metered instructions)',
        values: Object.entries(canister.instructions)
            .filter(([name]) => !/upgrade|batch of 100|render|first direct|http_request_update/.test(name))
            .flatMap(([operation, bySize]) =>
                Object.entries(bySize).map(([players, instructions]) => ({
                    operation,
                    players: Number(players),
                    instructions,
                })),
            ),
        x: ['players', 'players per game'],
        y: ['instructions', 'instructions'],
        series: 'operation',
        height: 360,
    });
    console.log(`\nResults: ${path.relative(process.cwd(), RESULTS_DIR)}/latest.json, throughput.svg, cost.svg`);
}

// `node --import tsx test/bench/results.ts`: draws the plots again from latest.json.
if (require.main === module) {
    const saved = JSON.parse(fs.readFileSync(path.join(RESULTS_DIR, 'latest.json'), 'utf8')) as {
        machine: { cores: number };
        service: ServiceRow[];
        canister: CanisterResults;
    };
    void plot(saved.service, saved.canister, saved.machine.cores);
}
