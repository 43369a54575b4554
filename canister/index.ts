// The leaderboard canister: its lifecycle hooks, its direct reads over http_request, and an entry
// point for every method of the contract's METHODS table (shell/entry-points.ts) running the
// method's use case (methods/) behind the guards (shell/guards.ts); every manual method is
// called directly (shell/direct-callbacks.ts).
import { init, performanceCounter, postUpgrade, preUpgrade, query, update } from 'azle';

import { INIT_ARG } from '../contract/init-arg';
import { HttpRequest, HttpResponse, HttpUpdateRequest, serveHttp, serveHttpUpdate } from './http';
import { USE_CASES } from './methods';
import * as capacity from './service/capacity';
import { entryPoints } from './shell/entry-points';
import { afterUpgrade, beforeUpgrade, onInit } from './shell/lifecycle';
import { certify, ctx, direct } from './shell/state';

const addMethods = entryPoints(USE_CASES, {
    http_request: () => serveHttp(ctx, direct),
    http_request_update: () => httpRequestUpdate(),
});

function httpRequestUpdate(): void {
    serveHttpUpdate(ctx, direct, certify);
    capacity.noteInstructions(ctx, Number(performanceCounter(0)));
}

export default class {
    constructor() {
        addMethods(this);
    }

    @init([INIT_ARG])
    init(arg: [] | [string]): void {
        onInit(arg);
    }

    @preUpgrade
    preUpgrade(): void {
        beforeUpgrade();
    }

    @postUpgrade([INIT_ARG])
    postUpgrade(arg: [] | [string]): void {
        afterUpgrade(arg);
    }

    @query([HttpRequest], HttpResponse, { manual: true })
    http_request(): void {
        serveHttp(ctx, direct);
    }

    @update([HttpUpdateRequest], HttpResponse, { manual: true })
    http_request_update(): void {
        httpRequestUpdate();
    }
}
