import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resources } from "~/i18n/catalogues.server";
import { isNamespace, LANGUAGES, type Namespace } from "~/i18n/config";

/**
 * Every key a component writes literally, t("list.status.failed"), exists in
 * English and in Hausa, in one of the namespaces the file translates with:
 * a missing key would show as raw text ("list.status.waitingApproval") on a
 * page the sweep may never reach (a title waiting for approval, a refusal).
 */

const APP = path.resolve(__dirname, "../../app");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "locales" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The value at a dotted key, with i18next's plural forms (key_one, key_other) counting as the key. */
function hasKey(catalogue: unknown, key: string): boolean {
  let node: unknown = catalogue;
  const parts = key.split(".");
  for (const [index, part] of parts.entries()) {
    if (!node || typeof node !== "object") return false;
    const record = node as Record<string, unknown>;
    if (index === parts.length - 1)
      return typeof record[part] === "string" || typeof record[`${part}_other`] === "string";
    node = record[part];
  }
  return false;
}

describe("translation keys written in the code", () => {
  it("exist in English and in Hausa", () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of sourceFiles(APP)) {
      const text = fs.readFileSync(file, "utf8");
      const namespaces = new Set<Namespace>();
      for (const match of text.matchAll(/useTranslation\(\s*(?:"(\w+)")?\s*\)/g)) {
        const namespace = match[1] ?? "common";
        if (isNamespace(namespace)) namespaces.add(namespace);
      }
      if (namespaces.size === 0) continue;
      for (const match of text.matchAll(/\bt\(\s*"([\w.:-]+)"/g)) {
        const written = match[1];
        const [namespace, key] = written.includes(":")
          ? (written.split(":", 2) as [Namespace, string])
          : [null, written];
        const candidates = namespace ? [namespace] : [...namespaces];
        checked++;
        for (const language of LANGUAGES) {
          const catalogues = resources[language] as Record<string, unknown>;
          if (!candidates.some((candidate) => hasKey(catalogues[candidate], key)))
            missing.push(`${path.relative(APP, file)}: ${written} (${language}, in ${candidates.join(" or ")})`);
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
    expect(missing).toEqual([]);
  });
});
