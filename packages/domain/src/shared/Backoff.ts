/** Bounds of a retry delay that doubles with each attempt. */
export interface DoublingBackoff {
  readonly baseDelayMs: number
  readonly maxDelayMs: number
}

/** The delay before retrying after attempt `attempts` (1 for the first): the base, doubled per attempt, capped. */
export const doublingDelayMs = (policy: DoublingBackoff, attempts: number): number =>
  Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempts - 1))
