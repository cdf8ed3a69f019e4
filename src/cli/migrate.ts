import type { Config } from '../config/schema.js';
import { migrate, openStorage } from '../storage/database.js';

export async function migrateCommand(config: Config): Promise<number> {
  const storage = openStorage(config.databaseUrl, { masterKey: config.masterKey });
  try {
    const applied = await migrate(storage);
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'storage is up to date\n');
    return 0;
  } finally {
    await storage.close();
  }
}
