/**
 * `npm run bench:upload-space` (after `npm run build`): can providers take
 * every other provider's upload room by declaring resumable uploads and
 * sending nothing (or a byte now and then)?
 *
 * Two providers each declare 4 GiB uploads (tus, `Upload-Length`, no bytes)
 * until refused; a third provider then declares a 500 MB upload. Printed: how
 * many each got, how much they held of the space, and the third's answer.
 * Then the same with the holders' uploads idle past UPLOAD_HOLD_MINUTES (set
 * to a few seconds here): the third provider's answer again.
 */
import { eq } from "drizzle-orm";
import { accounts } from "../app/db/schema";
import { spareBytes } from "../app/media/storage.server";
import { PASSWORD, prepareStorage, startServer } from "./lib";

const GiB = 1024 ** 3;
const HOLD_SECONDS = 5;
const { root, db } = await prepareStorage("upload-space");
const template = db.select().from(accounts).where(eq(accounts.id, "benchprovider01")).get()!;
const ids = ["spaceprovider01", "spaceprovider02", "spaceprovider03"];
for (const [i, id] of ids.entries())
  db.insert(accounts)
    .values({ ...template, id, email: `space${i}@bench.test` })
    .run();
const server = await startServer(root, 3471, {
  env: { WORKERS: "1", UPLOAD_HOLD_MINUTES: String(HOLD_SECONDS / 60), MAX_UPLOAD_MB: String(8 * 1024) },
});
const url = "http://127.0.0.1:3471";

async function token(i: number): Promise<string> {
  const response = await fetch(`${url}/api/cp/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": `198.51.100.${40 + i}` },
    body: JSON.stringify({ email: `space${i}@bench.test`, password: PASSWORD }),
  });
  return ((await response.json()) as { token: string }).token;
}
const b64 = (value: string) => Buffer.from(value).toString("base64");
async function declare(bearer: string, size: number): Promise<number> {
  const response = await fetch(`${url}/provider/uploads/tus`, {
    method: "POST",
    headers: {
      "Tus-Resumable": "1.0.0",
      Authorization: `Bearer ${bearer}`,
      "Upload-Length": String(size),
      "Upload-Metadata": [
        `name ${b64("Declared")}`,
        `Category ${b64("benchcategory01")}`,
        `filename ${b64("declared.mp4")}`,
      ].join(","),
    },
  });
  await response.arrayBuffer();
  return response.status;
}

try {
  const free = spareBytes(root);
  console.log(`[upload-space] upload space here: ${(free / GiB).toFixed(1)} GiB`);
  const [first, second, third] = await Promise.all([token(0), token(1), token(2)]);
  for (const [name, bearer] of [
    ["provider 1", first],
    ["provider 2", second],
  ] as const) {
    let made = 0;
    while (made < 40 && (await declare(bearer, 4 * GiB)) === 201) made += 1;
    console.log(`[upload-space] ${name} declared ${made} × 4 GiB before a refusal (${made * 4} GiB held)`);
  }
  console.log(`[upload-space] a third provider's first 500 MB upload: ${await declare(third, 500 * 1024 ** 2)}`);
  await new Promise((resolve) => setTimeout(resolve, (HOLD_SECONDS + 1) * 1000));
  console.log(
    `[upload-space] after ${HOLD_SECONDS} s without a byte (UPLOAD_HOLD_MINUTES here), another 500 MB: ${await declare(third, 500 * 1024 ** 2)}`,
  );
} finally {
  await server.stop();
}
