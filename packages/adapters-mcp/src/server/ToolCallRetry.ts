import type { RetryOptions } from "@svc/sdk"

/**
 * An agent waits on its tool call: connection failures, 5xx and 429 are retried for at most 10 s, then the tool
 * answers the API's error (with its Retry-After) and the agent decides.
 */
export const TOOL_CALL_RETRY: RetryOptions = { maxElapsedMs: 10_000, maxDelayMs: 5_000 }
