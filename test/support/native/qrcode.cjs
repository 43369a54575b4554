// qrcode as the gateway loads it in production, by Node itself (jest.config.js maps it here):
// in jest's sandbox pngjs's per-byte Math.abs made one 256-px QR code cost ~1 s instead of ~12 ms.
'use strict';
module.exports = require('./native-require.cjs')(__filename)('qrcode');
