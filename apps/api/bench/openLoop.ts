/**
 * Requests at a fixed arrival rate (an open loop): request i is due at start + i / rate and is sent then, whether or
 * not earlier ones have answered, each on a keep-alive connection that is free or a new one. Its latency runs from the
 * time it was due, not from the time it was sent, so a load generator or service that falls behind shows as latency
 * instead of as fewer requests (no coordinated omission).
 */

import { Agent, request } from "node:http"
import { type Figures, quantiles } from "./figures.ts"

/** Latency above which a request counts as slow, in ms. */
export const SLOW_MS = 50

export interface OpenLoopFigures extends Figures {
  /** Share of the answered requests slower than SLOW_MS, in percent. */
  readonly slowPercent: number
}

export const openLoop = async (
  name: string,
  options: {
    readonly url: string
    /** The next request's headers and body (a fresh idempotency key, the next agent's token, a signed body). */
    readonly next: () => { readonly headers: Record<string, string>; readonly body: string }
    readonly ratePerSecond: number
    readonly seconds: number
  }
): Promise<OpenLoopFigures> => {
  const agent = new Agent({ keepAlive: true })
  const latencies: Array<number> = []
  let failures = 0
  const send = (due: number) =>
    new Promise<void>((resolve) => {
      const fail = () => {
        failures++
        resolve()
      }
      const { headers, body } = options.next()
      request(options.url, { method: "POST", agent, headers }, (response) => {
        response.resume()
        response.on("end", () => {
          if (response.statusCode !== undefined && response.statusCode < 300) latencies.push(performance.now() - due)
          else failures++
          resolve()
        })
        response.on("error", fail)
      })
        .on("error", fail)
        .end(body)
    })
  const total = Math.floor(options.ratePerSecond * options.seconds)
  const interval = 1000 / options.ratePerSecond
  const start = performance.now()
  const answers: Array<Promise<void>> = []
  await new Promise<void>((resolve) => {
    const sendDue = () => {
      while (answers.length < total && start + answers.length * interval <= performance.now()) {
        answers.push(send(start + answers.length * interval))
      }
      if (answers.length === total) return resolve()
      setTimeout(sendDue, Math.max(0, start + answers.length * interval - performance.now()))
    }
    sendDue()
  })
  await Promise.all(answers)
  agent.destroy()
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
