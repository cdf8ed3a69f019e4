import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { AnchorFile } from '../../src/storage/activity-anchor.js';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { MASTER_KEY } from '../helpers/portal.js';
import { rollbackScenarios } from './anchor-scenarios.js';

// The anchors in a file: by default next to an SQLite database, named for PostgreSQL (BASTION_ACTIVITY_ANCHOR_FILE).
for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: a wiped or rolled-back activity log is reported (anchor file)`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const url = await databaseUrl(t, backend);
    const anchorFile = backend === 'postgres' ? join(mkdtempSync(join(tmpdir(), 'bastion-anchor-')), 'anchor.json') : undefined;
    const gw = await startTestGateway(t, { databaseUrl: url, config: { masterKey: MASTER_KEY, ...(anchorFile ? { activityAnchorFile: anchorFile } : {}) } });
    const file = (gw.services.storage.activityAnchor as AnchorFile).path;
    if (!anchorFile) t.equal(file, `${url.slice('sqlite:'.length)}.activity-anchor.json`, 'SQLite: next to the database file');
    const anchors = () => JSON.parse(readFileSync(file, 'utf8')) as Record<string, { seq: number }>;
    await rollbackScenarios(t, gw, { DATABASE_URL: url, BASTION_MASTER_KEY: MASTER_KEY.toString('hex'), ...(anchorFile ? { BASTION_ACTIVITY_ANCHOR_FILE: anchorFile } : {}) }, {
      drop: async () => rmSync(file),
      edit: async (tenant, change) => {
        const all = anchors();
        change(all[tenant]);
        writeFileSync(file, JSON.stringify(all));
      },
      garble: async () => writeFileSync(file, 'not json'),
    });
  });
}
