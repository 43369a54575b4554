// The /docs page's script: Swagger UI on /openapi.json, with the anchors the project links to
// kept: #rule-<id> goes to the rules page, #<operationId> to that operation (opened).
/* global SwaggerUIBundle, location, history */
'use strict';

let hash = location.hash.slice(1);
try {
    hash = decodeURIComponent(hash);
} catch {
    // A malformed escape names nothing, and Swagger UI's own decoding would throw on it: dropped.
    hash = '';
    history.replaceState(null, '', location.pathname + location.search);
}
if (hash.startsWith('rule-')) location.replace(`/docs/rules#${hash}`);
else {
    // Operations carry no tag: Swagger UI files them under `default` (its deep link #/<tag>/<id>).
    if (hash !== '' && !hash.startsWith('/')) history.replaceState(null, '', `#/default/${hash}`);
    SwaggerUIBundle({
        url: '/openapi.json',
        dom_id: '#reference',
        deepLinking: true,
        displayOperationId: true,
        // A reference, not a console: no "Try it out", no schema list, no validator badge (an outside request).
        supportedSubmitMethods: [],
        defaultModelsExpandDepth: -1,
        validatorUrl: null,
    });
}
