import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { transformSync } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { storageRefusal } from "~/utils/storage-access.server";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-storage-access-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("storageRefusal", () => {
  it("is null for folders this process can write, and makes a missing folder", () => {
    const missing = path.join(root, "new", "storage");
    expect(storageRefusal([missing, root])).toBeNull();
    expect(fs.existsSync(missing)).toBe(true);
    expect(fs.readdirSync(missing)).toEqual([]);
  });

  // Root writes anywhere: the refusal is seen from another user, as the container's uid 1000 sees a root-owned bind mount.
  it.runIf(process.getuid?.() === 0)("names the folder, the user and the chown that fixes it, in one line", () => {
    const owned = path.join(root, "root-owned");
    fs.mkdirSync(owned, { mode: 0o755 });
    fs.chmodSync(root, 0o755);
    // The module as plain JavaScript in a folder the other user may read (the checkout may sit in /root).
    const module = path.join(root, "storage-access.mjs");
    const source = fs.readFileSync("app/utils/storage-access.server.ts", "utf8");
    fs.writeFileSync(module, transformSync(source, { loader: "ts", format: "esm" }).code);
    fs.chmodSync(module, 0o644);
    const script = `import { storageRefusal } from ${JSON.stringify(module)}; console.log(storageRefusal([${JSON.stringify(owned)}]));`;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      uid: 65534,
      gid: 65534,
      encoding: "utf8",
      cwd: root,
    });
    expect(child.stderr).toBe("");
    const said = child.stdout.trim();
    expect(said.split("\n")).toHaveLength(1);
    expect(said).toContain(owned);
    expect(said).toContain("uid 65534");
    expect(said).toContain(`chown -R 65534:65534 ${owned}`);
  });
});
