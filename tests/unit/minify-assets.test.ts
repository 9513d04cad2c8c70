import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { minifyScripts } from "../../scripts/minify-assets";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-minify-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

// What esbuild leaves and Terser's compressor removes: a constant only used once, a branch never taken, a helper nobody calls.
const source = `const GREETING = "sannu";
function unused() { return "never called"; }
export function greet(name) {
  if (false) console.log("never");
  const words = [GREETING, name];
  return words.join(", ");
}
export const count = [1, 2, 3].length;
`;

describe("the build's scripts minified again", () => {
  it("come out smaller and still do what they did; a second run changes nothing", async () => {
    fs.mkdirSync(path.join(folder, "_shared"));
    const file = path.join(folder, "_shared", "chunk-ABC.js");
    fs.writeFileSync(file, source);
    fs.writeFileSync(path.join(folder, "styles.css"), "a { color: red; }\n");

    const summary = await minifyScripts(folder);
    expect(summary.files).toBe(1);
    expect(summary.after).toBeLessThan(summary.before);
    const minified = fs.readFileSync(file, "utf8");
    expect(minified).not.toContain("never called");
    expect(minified.length).toBeLessThan(source.length / 2);
    const module = (await import(pathToFileURL(file).href)) as { greet: (name: string) => string; count: number };
    expect(module.greet("Aisha")).toBe("sannu, Aisha");
    expect(module.count).toBe(3);
    expect(fs.readFileSync(path.join(folder, "styles.css"), "utf8")).toBe("a { color: red; }\n");

    await minifyScripts(folder);
    expect(fs.readFileSync(file, "utf8")).toBe(minified);
  });
});
