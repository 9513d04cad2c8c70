import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PROCESS_TAG, temporaryPath } from "~/media/atomic-files.server";
import { FOREIGN_IDLE_MS, OWN_IDLE_MS, sweepTemporaryFiles } from "~/media/tmp-sweep.server";

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-sweep-"));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function make(name: string, ageMs = 0): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, "x".repeat(100));
  const when = new Date(Date.now() - ageMs);
  fs.utimesSync(file, when, when);
  return name;
}

describe("sweeping tmp/", () => {
  it("removes what a gone process left at once, what a live one left only once idle, and leaves this process's own work", () => {
    const own = path.basename(temporaryPath(tmp, "video.mp4"));
    expect(own.startsWith(`${PROCESS_TAG}-`)).toBe(true);
    const dead = make("p99999999-abcdef-0011-upload.part");
    const liveFresh = make(`p${process.ppid}-abcdef-0022-video.mp4`);
    const liveIdle = make(`p${process.ppid}-abcdef-0033-video.mp4`, FOREIGN_IDLE_MS + 60_000);
    const untaggedIdle = make("upload-old.part", FOREIGN_IDLE_MS + 60_000);
    fs.writeFileSync(path.join(tmp, own), "y");
    const ownLeak = make(`${PROCESS_TAG}-0044-leak.mp4`, OWN_IDLE_MS + 60_000);
    // A ladder's work folder counts its newest write.
    const folder = `p99999998-abcdef-0055-ladder-x`;
    fs.mkdirSync(path.join(tmp, folder));
    fs.writeFileSync(path.join(tmp, folder, "360p.mp4"), "z".repeat(50));

    const result = sweepTemporaryFiles(tmp);
    expect(fs.readdirSync(tmp).sort()).toEqual([liveFresh, own].sort());
    expect(result).toEqual({ removed: 5, bytes: 100 * 4 + 50 });
    expect([dead, liveIdle, untaggedIdle, ownLeak, folder].some((name) => fs.existsSync(path.join(tmp, name)))).toBe(
      false,
    );
  });
});
