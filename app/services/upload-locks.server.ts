import { ERRORS, MemoryLocker, type Lock, type Locker, type RequestRelease } from "@tus/server";
import { inCluster, SlotNotTaken, takeSharedSlot } from "~/utils/cluster.server";

/**
 * @tus/server locks an upload for each request that reads or writes it, so two
 * PATCHes never write into one file at once; a request that waits asks the
 * holder to let go (a client resuming after a drop must not wait for the old,
 * dead request to time out). Its own MemoryLocker sees one process. With
 * several workers the two requests may land on different processes, so the
 * lock is a slot kept by the primary (utils/cluster.server.ts) — same rules,
 * one lock for every worker, and a crashed worker's locks are freed with it.
 */
const LOCK_TIMEOUT_MS = 30_000; // MemoryLocker's own

export function uploadLocker(): Locker {
  return inCluster() ? new SharedUploadLocker() : new MemoryLocker({ acquireLockTimeout: LOCK_TIMEOUT_MS });
}

class SharedUploadLocker implements Locker {
  newLock(id: string): Lock {
    return new SharedUploadLock(id);
  }
}

class SharedUploadLock implements Lock {
  private giveBack: (() => void) | null = null;

  constructor(private readonly id: string) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    try {
      this.giveBack = await takeSharedSlot(`upload:${this.id}`, {
        timeoutMs: LOCK_TIMEOUT_MS,
        signal,
        onWanted: () => void requestRelease(),
      });
    } catch (error) {
      if (error instanceof SlotNotTaken) throw ERRORS.ERR_LOCK_TIMEOUT;
      throw error;
    }
  }

  async unlock(): Promise<void> {
    this.giveBack?.();
    this.giveBack = null;
  }
}

/**
 * Making the title from a complete upload, one request at a time: @tus/server
 * calls it after letting go of the upload's lock, and a repeated last request
 * on another worker must not place the same files while the first does. In
 * one process the work, being synchronous, cannot interleave anyway.
 */
export async function oneAtATime<T>(uploadId: string, work: () => T): Promise<T> {
  if (!inCluster()) return work();
  const giveBack = await takeSharedSlot(`upload-finish:${uploadId}`);
  try {
    return work();
  } finally {
    giveBack();
  }
}
