/**
 * While a read for `key` is under way, whoever asks for the same key gets the
 * same promise; once it settles it is forgotten, so nothing is cached and
 * nothing can go stale.
 */
export function shareWhilePending<T>(
  pending: Map<string, Promise<T>>,
  key: string,
  read: () => Promise<T>,
): Promise<T> {
  const underWay = pending.get(key);
  if (underWay) return underWay;
  const reading = read();
  pending.set(key, reading);
  const forget = () => {
    if (pending.get(key) === reading) pending.delete(key);
  };
  reading.then(forget, forget);
  return reading;
}
