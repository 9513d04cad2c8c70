import fs from "node:fs";
import path from "node:path";

/**
 * Why this process cannot keep its data in `folders` (STORAGE_DIR, the database's folder), in one line
 * that names the folder, the user the server runs as and the command that fixes it; null when each can be
 * written (or fails for another reason, such as a full disk, which the start does not stop for). The usual cause is a bind mount made by root (`-v /srv/kallo:/app/storage`) for a container
 * that runs as uid 1000.
 */
export function storageRefusal(folders: string[]): string | null {
  for (const folder of [...new Set(folders.map((each) => path.resolve(each)))]) {
    const probe = path.join(folder, `.kallo-write-check-${process.pid}`);
    try {
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(probe, "");
      fs.rmSync(probe, { force: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const uid = process.getuid?.() ?? "?";
      const gid = process.getgid?.() ?? "?";
      if (code === "EROFS")
        return `the storage folder ${folder} is on a read-only file system: give Kallo a writable folder (STORAGE_DIR, or a writable volume at ${folder}).`;
      if (code === "EACCES" || code === "EPERM")
        return `the storage folder ${folder} cannot be written by this server (uid ${uid}, gid ${gid}). Give it to that user: chown -R ${uid}:${gid} ${folder} (for a bind mount, on the host: sudo chown -R ${uid}:${gid} <the host's folder>).`;
      // Anything else (a full disk, say) is not the folder's owner: the start goes on and meets it where it is handled.
    }
  }
  return null;
}
