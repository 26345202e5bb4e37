/**
 * Work at a fixed arrival rate (an open loop), each piece's latency counted from the time it was due, not from the
 * time it started, so a load generator or service that falls behind shows as latency instead of as fewer requests (no
 * coordinated omission).
 */

import { Agent, request } from "node:http"
import { type Figures, quantiles } from "./figures.ts"

/** Latency above which a request counts as slow, in ms. */
export const SLOW_MS = 50

export interface OpenLoopFigures extends Figures {
  /** Share of the answered requests slower than SLOW_MS, in percent. */
  readonly slowPercent: number
}

/**
 * Runs `attempt` at a fixed arrival rate for `seconds`: attempt i is due at start + i / rate and starts then, whether
 * or not earlier ones have finished; it answers whether it succeeded, and its latency counts from when it was due.
 */
export const openLoop = async (
  name: string,
  options: {
    readonly attempt: () => Promise<boolean>
    readonly ratePerSecond: number
    readonly seconds: number
  }
): Promise<OpenLoopFigures> => {
  const latencies: Array<number> = []
  let failures = 0
  const run = async (due: number) => {
    const succeeded = await options.attempt().catch(() => false)
    if (succeeded) latencies.push(performance.now() - due)
    else failures++
  }
  const total = Math.floor(options.ratePerSecond * options.seconds)
  const interval = 1000 / options.ratePerSecond
  const start = performance.now()
  const answers: Array<Promise<void>> = []
  await new Promise<void>((resolve) => {
    const startDue = () => {
      while (answers.length < total && start + answers.length * interval <= performance.now()) {
        answers.push(run(start + answers.length * interval))
      }
      if (answers.length === total) return resolve()
      setTimeout(startDue, Math.max(0, start + answers.length * interval - performance.now()))
    }
    startDue()
  })
  await Promise.all(answers)
  const at = quantiles(latencies)
  return {
    name,
    requestsPerSecond: latencies.length / options.seconds,
    p50: at(0.5),
    p99: at(0.99),
    failures,
    slowPercent: Math.round((latencies.filter((ms) => ms > SLOW_MS).length / Math.max(1, latencies.length)) * 1000) / 10
  }
}

/**
 * POSTs to `url` over keep-alive connections (a free one or a new one), each request's headers and body from `next`
 * (a fresh idempotency key, the next agent's token, a signed body); a 2xx answer succeeds. `close` ends the connections.
 */
export const httpPoster = (
  url: string,
  next: () => { readonly headers: Record<string, string>; readonly body: string }
) => {
  const agent = new Agent({ keepAlive: true })
  const post = () =>
    new Promise<boolean>((resolve) => {
      const { headers, body } = next()
      request(url, { method: "POST", agent, headers }, (response) => {
        response.resume()
        response.on("end", () => resolve(response.statusCode !== undefined && response.statusCode < 300))
        response.on("error", () => resolve(false))
      })
        .on("error", () => resolve(false))
        .end(body)
    })
  return { post, close: () => agent.destroy() }
}
