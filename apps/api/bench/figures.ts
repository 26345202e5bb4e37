/** What a scenario reports, and how a list of latencies becomes it. */

export interface Figures {
  readonly name: string
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly failures: number
}

/** Latencies in ms, sorted in place; `at(q)` is the q-quantile, 0 when there are none. */
export const quantiles = (latencies: Array<number>) => {
  latencies.sort((a, b) => a - b)
  return (q: number) =>
    Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0) * 100) / 100
}
