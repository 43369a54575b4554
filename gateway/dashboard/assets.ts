// The dashboard's scripts: Chart.js (from its package) for the Analytics charts, and
// ./browser.js (copy buttons, the charts), both served from this origin.
import * as path from 'node:path';

import { Router } from 'express';

const CHART_JS = path.join(path.dirname(require.resolve('chart.js')), 'chart.umd.min.js');

export function assets(): Router {
    const router = Router();
    router.get('/dashboard/assets/chart.umd.min.js', (_req, res) => {
        res.set('Cache-Control', 'public, max-age=86400').type('application/javascript').sendFile(CHART_JS);
    });
    router.get('/dashboard/assets/dashboard.js', (_req, res) => {
        res.set('Cache-Control', 'public, max-age=3600')
            .type('application/javascript')
            .sendFile(path.join(__dirname, 'browser.js'));
    });
    return router;
}
