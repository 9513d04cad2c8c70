/** Start the built server on a fresh storage folder with the demo content, as `npm run demo` does. */
import fs from "node:fs";

const storageDir = process.env.STORAGE_DIR;
if (!storageDir || !storageDir.includes("kallo-e2e")) throw new Error("STORAGE_DIR must be a kallo-e2e temporary folder");
fs.rmSync(storageDir, { recursive: true, force: true });
process.argv.push("--demo");
await import("../../scripts/start");
