/** `npm run seed`: seeds the demo tenant into DATABASE_URL (idempotent; adds fresh demo events when all are past). */
import { createDb } from '@/db/client';
import { databaseNowMs } from '@/db/queries/platform/clock';
import { seedDemo } from '@/dev/seed';
import { requireDatabaseUrl } from './lib';

const handle = createDb(requireDatabaseUrl(), { max: 2 });
const r = await seedDemo(handle.db, new Date(await databaseNowMs(handle.db)));
console.log(r.createdEvents ? `seeded ${r.createdEvents} demo events` : 'demo data already present');
await handle.close();
