/**
 * Make an upgrade fixture from an earlier commit, with that commit's own
 * code: `node --import tsx tests/upgrades/make-fixture.ts <commit>`.
 *
 * 1. The commit is checked out beside this one (`git worktree`), sharing this
 *    checkout's node_modules.
 * 2. Its own `scripts/seed-demo.ts` makes a database with its own migrations
 *    and demo content (accounts of each role, categories, plans in that
 *    version's currency, titles with their files, series, subtitles, …).
 * 3. Every table the demo leaves empty gets a row (sessions, tokens, passes,
 *    vouchers, payments, history, lists, comments, …): each column filled by
 *    its type, each foreign key pointing at a row that exists.
 * 4. The database is compacted and written gzipped to
 *    tests/upgrades/fixtures/<date>-<commit>.db.gz (the media files are not
 *    kept: the test checks rows).
 *
 * tests/unit/upgrade-matrix.test.ts upgrades each fixture to today's schema.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { packFixture } from "./fixture-db";

const commit = process.argv[2];
if (!commit) {
  console.error("Usage: node --import tsx tests/upgrades/make-fixture.ts <commit>");
  process.exit(2);
}
const root = process.cwd();
const short = execFileSync("git", ["rev-parse", "--short=7", commit]).toString().trim();
const date = execFileSync("git", ["log", "-1", "--format=%cs", commit]).toString().trim();
const work = fs.mkdtempSync(path.join(os.tmpdir(), `kallo-fixture-${short}-`));
const tree = path.join(work, "tree");
const storage = path.join(work, "storage");
execFileSync("git", ["worktree", "add", "--detach", tree, commit], { stdio: "inherit" });
try {
  fs.symlinkSync(path.join(root, "node_modules"), path.join(tree, "node_modules"));
  execFileSync(process.execPath, ["--import", "tsx", "scripts/seed-demo.ts"], {
    cwd: tree,
    stdio: "inherit",
    env: {
      ...process.env,
      STORAGE_DIR: storage,
      SESSION_SECRET: "fixture-secret-0123456789abcdef0123456789",
      LADDER: "144",
    },
  });
  const out = packFixture(
    path.join(storage, "data.db"),
    path.join(root, "tests", "upgrades", "fixtures"),
    `${date}-${short}`,
  );
  console.log(`[fixture] ${out}: ${(fs.statSync(out).size / 1024).toFixed(0)} kB`);
} finally {
  execFileSync("git", ["worktree", "remove", "--force", tree]);
  fs.rmSync(work, { recursive: true, force: true });
}
