/**
 * Which container engine runs the image, and the flags this kind of machine needs. Podman 4.3 (Debian 12)
 * on a host with hybrid cgroups: crun cannot start containers there, runc can, and runc needs the open-files
 * and processes limits given explicitly (it may not raise them itself). KALLO_ENGINE picks the engine;
 * KALLO_ENGINE_FLAGS replaces the flags.
 */
import { spawnSync } from "node:child_process";

export function engineCommand(): { engine: string; runFlags: string[] } {
  const has = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;
  const engine = process.env.KALLO_ENGINE ?? (has("podman") ? "podman" : "docker");
  if (process.env.KALLO_ENGINE_FLAGS !== undefined)
    return { engine, runFlags: process.env.KALLO_ENGINE_FLAGS.split(/\s+/).filter(Boolean) };
  const runFlags =
    engine === "podman" && has("runc")
      ? ["--runtime", "runc", "--ulimit", "nofile=20000:20000", "--ulimit", "nproc=32768:32768"]
      : [];
  return { engine, runFlags };
}
