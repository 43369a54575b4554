// A game's backup, the face the canister uses: its pages for its developer (dev_backup_game,
// page.ts) and its import by an operator (admin_import_chunk/_end, import.ts: every record
// checked and rebuilt from its known fields, records.ts, then taken in like a move's chunks; the
// game gets a new API key and the developer the operator names). The file: docs/backups.md.
export { importChunk, importEnd } from './import';
export { backupPage } from './page';
