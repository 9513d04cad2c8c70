/**
 * Start the built server on a fresh storage folder with the demo content, as `npm run demo` does,
 * with card payments going to a local stand-in for Paystack (tests/fixtures/fake-paystack.ts)
 * that sends payers back to the callback and posts signed webhooks to the server.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { copySeededDemo } from "../fixtures/demo-storage";
import { startFakePaystack } from "../fixtures/fake-paystack";

const storageDir = process.env.STORAGE_DIR;
if (!storageDir || !storageDir.includes("kallo-e2e"))
  throw new Error("STORAGE_DIR must be a kallo-e2e temporary folder");
fs.rmSync(storageDir, { recursive: true, force: true });
// The demo `npm test` seeded once (its films are not made twice); the start below completes what it lacks.
copySeededDemo(storageDir);
const paystack = await startFakePaystack("sk_test_e2e_kallo", {
  webhookUrl: `http://localhost:${process.env.PORT ?? 3000}/payments/paystack/webhook`,
});
process.env.PAYSTACK_SECRET_KEY = paystack.secretKey;
process.env.PAYSTACK_BASE_URL = paystack.baseUrl;
// Ten failed sign-ins from one address show the refusal (the default allows 100 in 10 minutes).
process.env.SIGN_IN_FAILURES_PER_ADDRESS ??= "10";
// The tests start once the demo's films are all made (npm run demo serves while it makes them).
process.argv.push("--demo", "--demo-media-first");
// The start as `npm run build` compiled it (build/server/start.js), as `npm run demo` runs it.
await import(pathToFileURL(path.resolve("build/server/start.js")).href);
