/** `npm run seed:demo`: add the demo content to the configured database (safe to repeat). */
import { getEnv } from "../app/utils/env.server";
import { migrateDatabase, openDatabase } from "../app/db/client.server";
import { DEMO_ACCOUNTS } from "../app/demo/demo-catalogue";
import { seedDemo } from "../app/demo/seed-demo.server";

const env = getEnv();
const db = openDatabase(env.databasePath);
migrateDatabase(db);
const summary = await seedDemo(db, { storageDir: env.storageDir, ladder: env.ladder, codecs: env.ladderCodecs });
db.$client.close();
console.log(
  `[seed] ${summary.movies} titles, ${summary.categories} categories, ${summary.plans} plans in ${env.databasePath}`,
);
for (const account of DEMO_ACCOUNTS)
  console.log(`       ${account.role.padEnd(8)} ${account.email}  /  ${account.password}`);
