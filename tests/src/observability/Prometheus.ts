import { assert } from "@effect/vitest"

/** A scrape of GET /metrics: status, content type and body. */
export interface Scrape {
  readonly status: number
  readonly contentType: string | null
  readonly text: string
}

/** Scrapes /metrics through an app handler, presenting `authorization` when given. */
export const scrape = async (
  handler: (request: Request) => Promise<Response>,
  authorization?: string
): Promise<Scrape> => {
  const response = await handler(
    new Request("http://svc.test/metrics", { headers: authorization === undefined ? {} : { authorization } })
  )
  return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() }
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/u
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/gu

/**
 * The value of the sample `name` whose labels include `labels`, from the Prometheus text format; 0 when no such
 * sample exists (a counter never incremented is absent). Fails if several samples match.
 */
export const sampleValue = (text: string, name: string, labels: Readonly<Record<string, string>> = {}): number => {
  const matches = text.split("\n").flatMap((line) => {
    const parsed = SAMPLE.exec(line)
    if (parsed === null || parsed[1] !== name) return []
    const found = new Map([...(parsed[2] ?? "").matchAll(LABEL)].map((m) => [m[1], m[2]]))
    return Object.entries(labels).every(([k, v]) => found.get(k) === v) ? [Number(parsed[3])] : []
  })
  assert.isAtMost(matches.length, 1, `several ${name} samples match ${JSON.stringify(labels)}`)
  return matches[0] ?? 0
}
