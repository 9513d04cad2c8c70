/**
 * A failed request that says nothing about the request itself: no answer (status 0), a timeout, or the
 * box, the bucket or the CDN down or busy (5xx, 408, 429). Worth asking again until the link is back;
 * any other 4xx is a refusal. The player (the player's retries) and the offline downloader both decide by it.
 */
export function isPassingFailure(status: number | undefined, isTimeout = false): boolean {
  if (isTimeout) return true;
  if (status === undefined) return false;
  return status === 0 || status === 408 || status === 429 || status >= 500;
}
