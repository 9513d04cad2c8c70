import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildsInUse, markInUse, readBuildInfo } from "../../scripts/builds-in-use";

/**
 * `npm run build` keeps every build a running server uses: a primary marks
 * its build (`in-use/<pid>`) from its start until it stops or moves; a mark
 * whose process is gone (killed with -9) no longer keeps the build.
 */
let root: string;
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("builds in use", () => {
  it("names the builds a live process marked, forgets marks of processes that are gone", () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-builds-"));
    for (const name of ["20261101-000000", "20261102-000000", "20261103-000000"])
      fs.mkdirSync(path.join(root, name), { recursive: true });
    // A process that has ended: its pid is free.
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString();
    const unmark = markInUse(path.join(root, "20261101-000000"));
    markInUse(path.join(root, "20261102-000000"), Number(gone));

    const used = buildsInUse(root);
    expect([...used.keys()]).toEqual(["20261101-000000"]);
    expect(used.get("20261101-000000")).toContain(`pid ${process.pid}`);
    expect(fs.readdirSync(path.join(root, "20261102-000000", "in-use"))).toEqual([]);

    unmark();
    expect(buildsInUse(root).size).toBe(0);
  });

  it("does not mark, and does not fail, where the build folder cannot be written (a container's image)", () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-builds-"));
    const build = path.join(root, "20261101-000000");
    fs.mkdirSync(build);
    // A file where the marks' folder would go: as unwritable as a root-owned image is to uid 1000.
    fs.writeFileSync(path.join(build, "in-use"), "");
    const unmark = markInUse(build);
    expect(() => unmark()).not.toThrow();
    expect(buildsInUse(root).size).toBe(0);
  });

  it("reads a build's version, and says 'unknown' for a build made before builds carried one", () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-builds-"));
    fs.writeFileSync(
      path.join(root, "version.json"),
      JSON.stringify({ version: "1.4.0", commit: "abc", builtAt: "2026-11-28T00:00:00Z" }),
    );
    expect(readBuildInfo(root)).toMatchObject({ version: "1.4.0", commit: "abc" });
    expect(readBuildInfo(path.join(root, "nothing")).version).toBe("unknown");
  });
});
