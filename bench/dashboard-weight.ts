/**
 * What a first visit to the dashboards costs on the wire: /provider/stats and
 * /admin/dashboard, in English and in Hausa, over 40 titles with 30 days of
 * viewings, payments and passes. Reads each page the way a browser does
 * (bench/page-assets.ts) and prints Brotli kilobytes (what the server sends
 * a browser that takes it) of the HTML, its stylesheet, the scripts loaded
 * before the page runs and its translations, the number of SVG charts in the
 * HTML, and how long those bytes take at 500 kbps (bytes × 8 ÷ 500 000, no
 * latency). `npm run bench:dashboards` after `npm run build`.
 */
import fs from "node:fs";
import zlib from "node:zlib";
import { accounts, passes, payments, plans, watchEvents } from "../app/db/schema";
import { hashPassword } from "../app/services/passwords.server";
import { seedBulkCatalogue } from "./catalogue-seed";
import { PASSWORD, prepareStorage, signIn, startServer } from "./lib";
import { getText, loadPageAssets } from "./page-assets";

const PORT = Number(process.env.BENCH_PORT ?? 3607);
const LINK_KBPS = 500;

if (!fs.existsSync("build/index.js")) throw new Error("Run `npm run build` first");

const brotli = (text: string) =>
  zlib.brotliCompressSync(Buffer.from(text), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

const { root, db } = await prepareStorage("dashboards");
const catalogue = seedBulkCatalogue(db, {
  count: 40,
  providerIds: ["benchprovider01"],
  viewerIds: ["benchviewer0001"],
});
db.insert(accounts)
  .values({
    id: "benchadmin00001",
    name: "Bench Admin",
    email: "admin@bench.test",
    phoneNumber: "1",
    passwordHash: await hashPassword(PASSWORD),
    role: "admin",
  })
  .run();
db.insert(plans).values({ id: "benchplanbasic1", code: "BASIC", name: "Basic", premium: true }).run();
const now = Date.now();
const day = 86_400_000;
db.transaction((tx) => {
  for (let index = 0; index < 3000; index++) {
    const startedAt = new Date(now - (index % 30) * day - (index % 17) * 3_600_000);
    const position = 60 + ((index * 37) % 3000);
    tx.insert(watchEvents)
      .values({
        id: `benchwatch${index}`,
        accountId: "benchviewer0001",
        movieId: catalogue.movieIds[index % catalogue.movieIds.length]!,
        startedAt,
        updatedAt: new Date(startedAt.getTime() + position * 1000),
        positionSeconds: position,
        viewCounted: true,
      })
      .run();
  }
  for (let index = 0; index < 120; index++) {
    const paidAt = new Date(now - (index % 30) * day);
    tx.insert(payments)
      .values({
        id: `benchpay${index}`,
        accountId: "benchviewer0001",
        planId: "benchplanbasic1",
        periodDays: 7,
        amountMinor: 150_000,
        currency: "NGN",
        reference: `bench-${index}`,
        status: "success",
        paidAt,
      })
      .run();
    tx.insert(passes)
      .values({
        id: `benchpass${index}`,
        accountId: "benchviewer0001",
        planId: "benchplanbasic1",
        startsAt: paidAt,
        endsAt: new Date(paidAt.getTime() + 7 * day),
        source: "payment",
        paymentId: `benchpay${index}`,
      })
      .run();
  }
});
db.$client.close();
const server = await startServer(root, PORT);

try {
  const sessions = {
    provider: await signIn(server.url, "/cp", "provider@bench.test"),
    admin: await signIn(server.url, "/login", "admin@bench.test"),
  };
  const kb = (bytes: number) => (bytes / 1024).toFixed(1).padStart(6);
  console.log(`\nFirst visit to the dashboards: Brotli kB on the wire, and the time at ${LINK_KBPS} kbps`);
  console.log("page                        lang   html    css  scripts  transl.   total  charts  at 500 kbps");
  for (const page of [
    { label: "/provider/stats (provider)", path: "/provider/stats", cookie: sessions.provider },
    { label: "/admin/dashboard (admin)", path: "/admin/dashboard", cookie: sessions.admin },
  ]) {
    for (const language of ["en", "ha"]) {
      const headers = { Cookie: `${page.cookie}; kallo_lang=${language}`, "Accept-Language": language };
      const assets = await loadPageAssets(`${server.url}${page.path}`, headers);
      const stylesheets = [...assets.html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map(
        (match) => match[1]!,
      );
      let css = 0;
      for (const href of stylesheets) css += brotli(await getText(`${server.url}${href}`));
      const html = brotli(assets.html);
      const scripts = [...assets.scripts.values()].reduce((total, source) => total + brotli(source), 0);
      const translations = [...assets.translations.values()].reduce((total, text) => total + brotli(text), 0);
      const total = html + css + scripts + translations;
      const charts = (assets.html.match(/<svg\b[^>]*role="img"/g) ?? []).length;
      const seconds = (total * 8) / (LINK_KBPS * 1000);
      console.log(
        `${page.label.padEnd(27)} ${language}   ${kb(html)} ${kb(css)} ${kb(scripts)}   ${kb(translations)}  ${kb(total)}  ${String(charts).padStart(6)}  ${seconds.toFixed(2)} s`,
      );
    }
  }
  console.log("(the HTML alone carries every chart: with JavaScript off, the page is whole after its HTML and CSS)");
} finally {
  await server.stop();
  fs.rmSync(root, { recursive: true, force: true });
}
