import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { sampleValue } from "../observability/Prometheus.ts"
import { apiProcesses, type Running } from "../support/ApiProcess.ts"

const RETRY_MS = 500
const TOKEN = "leader-metrics-token"

/** `background_jobs_leader` as the process reports it on /metrics; undefined once it no longer answers. */
const leads = async (server: Running) => {
  const response = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } }).catch(
    () => undefined
  )
  if (response === undefined) return undefined
  assert.strictEqual(response.status, 200)
  return sampleValue(await response.text(), "background_jobs_leader")
}

/** Polls until exactly one of `servers` reports leading; returns it, or fails after `withinMs`. */
const theLeader = async (servers: ReadonlyArray<Running>, withinMs: number) => {
  const deadline = Date.now() + withinMs
  for (;;) {
    const values = await Promise.all(servers.map(leads))
    const leaders = servers.filter((_, i) => values[i] === 1)
    if (leaders.length === 1 && leaders[0] !== undefined) return leaders[0]
    assert.isAtMost(leaders.length, 1, "two processes report leading at once")
    if (Date.now() > deadline) return assert.fail(`no process leads within ${withinMs} ms: ${values.join(", ")}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe.skipIf(process.env.DATABASE_URL === undefined)("two API processes on one Postgres database", () => {
  const processes = apiProcesses()
  let servers: Array<Running> = []

  beforeAll(async () => {
    const env = {
      METRICS_TOKEN: TOKEN,
      BACKGROUND_JOBS_LEADER_RETRY_MS: String(RETRY_MS),
      BACKGROUND_JOBS_LEADER_CHECK_MS: "300"
    }
    servers = await Promise.all([processes.start(env), processes.start(env)])
  }, 120_000)

  afterAll(() => {
    for (const server of servers) if (server.child.exitCode === null) server.child.kill("SIGKILL")
  })

  it("exactly one runs the background jobs; killed with SIGKILL, the other takes them over within a retry", async () => {
    const leader = await theLeader(servers, 10_000)
    const follower = servers.find((server) => server !== leader)
    assert.isDefined(follower)
    if (follower === undefined) return
    assert.include(leader.output(), "became the background-jobs leader")
    assert.notInclude(follower.output(), "became the background-jobs leader")
    // Several retries later, still the same one.
    await new Promise((resolve) => setTimeout(resolve, 3 * RETRY_MS))
    assert.strictEqual(await theLeader(servers, 0), leader)

    leader.child.kill("SIGKILL")
    await leader.exited
    const killedAt = Date.now()
    await follower.printed("became the background-jobs leader")
    const tookOver = Date.now() - killedAt
    assert.isAtMost(tookOver, RETRY_MS + 1_500, `took over after ${tookOver} ms`)
    assert.strictEqual(await leads(follower), 1)
  }, 60_000)
})
