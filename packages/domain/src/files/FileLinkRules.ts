/** How long a presigned file link lives when the client does not say: 60 seconds, as the twin's do. */
export const DEFAULT_FILE_LINK_SECONDS = 60
/** The longest a presigned file link may live: one hour. */
export const MAX_FILE_LINK_SECONDS = 3600

/** The expiry (unix seconds) of a link made at `nowMs` to live `lifetimeSeconds`. */
export const fileLinkExpiry = (nowMs: number, lifetimeSeconds: number): number =>
  Math.floor(nowMs / 1000) + lifetimeSeconds

/** The milliseconds a link expiring at `expires` (unix seconds) has left at `nowMs`; 0 or less once it has expired. */
export const fileLinkMillisLeft = (nowMs: number, expires: number): number => expires * 1000 - nowMs
