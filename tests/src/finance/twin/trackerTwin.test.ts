import { assert } from "@effect/vitest"
import { assertInvalid, withAppOnPorts } from "../../support/HttpScenarios.ts"
import { financeTeam } from "../FinanceHttpSetup.ts"
import { twinSuite } from "./TwinSuite.ts"

twinSuite("tracker entries and timer", (it) => {
  it.effect("the timer's status while it runs and after it stops, and one entry by id", () =>
    withAppOnPorts(async (app) => {
      const team = await financeTeam(app)
      const token = team.owner
      const project = await app.call("POST", "/tracker-projects", { token, body: { name: "Website" } })
      assert.strictEqual(project.status, 201, JSON.stringify(project.body))

      const idle = await app.call("GET", "/tracker-entries/timer/status", { token })
      assert.strictEqual(idle.status, 200)
      assert.deepStrictEqual(idle.body, { data: { isRunning: false, currentEntry: null, elapsedTime: 0 } })

      const started = await app.call("POST", "/tracker-entries/timer/start", {
        token,
        body: { projectId: project.body.id, description: "Landing page" }
      })
      assert.strictEqual(started.status, 201, JSON.stringify(started.body))
      const running = await app.call("GET", "/tracker-entries/timer/status", { token })
      assert.strictEqual(running.status, 200)
      assert.isTrue(running.body.data.isRunning)
      assert.deepStrictEqual(running.body.data.currentEntry, {
        ...started.body,
        trackerProject: { id: project.body.id, name: "Website" }
      })
      assert.isAtLeast(running.body.data.elapsedTime, 0)
      assert.isBelow(running.body.data.elapsedTime, 60)

      const one = await app.call("GET", `/tracker-entries/${started.body.id}`, { token })
      assert.deepStrictEqual([one.status, one.body], [200, started.body])

      const stopped = await app.call("POST", "/tracker-entries/timer/stop", { token })
      assert.strictEqual(stopped.status, 200, JSON.stringify(stopped.body))
      const after = await app.call("GET", "/tracker-entries/timer/status", { token })
      assert.deepStrictEqual(after.body, { data: { isRunning: false, currentEntry: null, elapsedTime: 0 } })
      const finished = await app.call("GET", `/tracker-entries/${started.body.id}`, { token })
      assert.strictEqual(finished.body.stop, stopped.body.stop)
    })
  )

  it.effect("an entry of another team or an unknown id is 404; a malformed id is 400", () =>
    withAppOnPorts(async (app) => {
      const acme = await financeTeam(app)
      const other = await financeTeam(app)
      const project = await app.call("POST", "/tracker-projects", { token: acme.owner, body: { name: "Audit" } })
      const entry = await app.call("POST", "/tracker-entries", {
        token: acme.owner,
        body: { projectId: project.body.id, start: "2026-03-02T09:00:00Z", stop: "2026-03-02T17:00:00Z" }
      })
      assert.strictEqual(entry.status, 201, JSON.stringify(entry.body))
      const hidden = await app.call("GET", `/tracker-entries/${entry.body.id}`, { token: other.owner })
      assert.strictEqual(hidden.status, 404)
      assertInvalid(await app.call("GET", "/tracker-entries/not-a-uuid", { token: acme.owner }), "params.id")
    })
  )

  it.effect("a range over several dates lists the entries of each, filtered by project", () =>
    withAppOnPorts(async (app) => {
      const { owner: token } = await financeTeam(app)
      const project = await app.call("POST", "/tracker-projects", { token, body: { name: "Retainer" } })
      const other = await app.call("POST", "/tracker-projects", { token, body: { name: "Other" } })
      for (const [projectId, day] of [
        [project.body.id, "2026-04-01"],
        [project.body.id, "2026-04-03"],
        [other.body.id, "2026-04-02"],
        [project.body.id, "2026-04-09"]
      ]) {
        const created = await app.call("POST", "/tracker-entries", {
          token,
          body: { projectId, start: `${day}T09:00:00Z`, duration: 3600 }
        })
        assert.strictEqual(created.status, 201, JSON.stringify(created.body))
      }
      const listed = await app.call(
        "GET",
        `/tracker-entries?from=2026-04-01&to=2026-04-05&projectId=${project.body.id}`,
        { token }
      )
      assert.strictEqual(listed.status, 200, JSON.stringify(listed.body))
      assert.deepStrictEqual(
        listed.body.data.map((e: { start: string }) => e.start.slice(0, 10)),
        ["2026-04-03", "2026-04-01"]
      )
    })
  )

  it.effect("POST /tracker-entries with the twin's dates creates one entry a day at the same time, all or none", () =>
    withAppOnPorts(async (app) => {
      const { owner: token } = await financeTeam(app)
      const project = await app.call("POST", "/tracker-projects", { token, body: { name: "Retainer" } })
      const created = await app.call("POST", "/tracker-entries", {
        token,
        body: {
          projectId: project.body.id,
          start: "2026-03-02T09:00:00.000Z",
          stop: "2026-03-02T17:30:00.000Z",
          duration: 30_600,
          dates: ["2026-03-02", "2026-03-04", "2026-03-05"],
          description: "Support"
        }
      })
      assert.strictEqual(created.status, 201, JSON.stringify(created.body))
      assert.deepStrictEqual(
        created.body.data.map((e: { start: string; stop: string; duration: number }) => [e.start, e.stop, e.duration]),
        [
          ["2026-03-02T09:00:00.000Z", "2026-03-02T17:30:00.000Z", 30_600],
          ["2026-03-04T09:00:00.000Z", "2026-03-04T17:30:00.000Z", 30_600],
          ["2026-03-05T09:00:00.000Z", "2026-03-05T17:30:00.000Z", 30_600]
        ]
      )
      const byDuration = await app.call("POST", "/tracker-entries", {
        token,
        body: { projectId: project.body.id, start: "2026-03-01T22:00:00Z", duration: 7200, dates: ["2026-04-10"] }
      })
      assert.strictEqual(byDuration.status, 201, JSON.stringify(byDuration.body))
      assert.deepInclude(byDuration.body.data[0], {
        start: "2026-04-10T22:00:00.000Z",
        stop: "2026-04-11T00:00:00.000Z"
      })

      const listed = async () =>
        (await app.call("GET", "/tracker-entries?from=2026-01-01&to=2026-12-31", { token })).body.data.length
      const before = await listed()
      assert.strictEqual(before, 4)
      const backwards = await app.call("POST", "/tracker-entries", {
        token,
        body: {
          projectId: project.body.id,
          start: "2026-03-02T09:00:00Z",
          stop: "2026-03-02T08:00:00Z",
          dates: ["2026-03-09"]
        }
      })
      assertInvalid(backwards, "stop")
      const badDate = await app.call("POST", "/tracker-entries", {
        token,
        body: {
          projectId: project.body.id,
          start: "2026-03-02T09:00:00Z",
          duration: 60,
          dates: ["2026-03-09", "2026-02-30"]
        }
      })
      assertInvalid(badDate, "dates.1")
      assert.strictEqual(await listed(), before)
    })
  )

  it.effect(
    "the bulk route takes the twin's {entries} as well as the array; a refused item is named with its index",
    () =>
      withAppOnPorts(async (app) => {
        const { owner: token } = await financeTeam(app)
        const project = await app.call("POST", "/tracker-projects", { token, body: { name: "Migration" } })
        const entry = (day: string, extra: Record<string, unknown> = {}) => ({
          projectId: project.body.id,
          start: `${day}T09:00:00.000Z`,
          stop: `${day}T17:00:00.000Z`,
          duration: 28_800,
          ...extra
        })
        const twin = await app.call("POST", "/tracker-entries/bulk", {
          token,
          body: { entries: [entry("2026-04-15", { dates: ["2026-04-15"] }), entry("2026-04-16")] }
        })
        assert.strictEqual(twin.status, 201, JSON.stringify(twin.body))
        assert.deepStrictEqual(
          twin.body.data.map((e: { start: string }) => e.start),
          ["2026-04-15T09:00:00.000Z", "2026-04-16T09:00:00.000Z"]
        )
        const array = await app.call("POST", "/tracker-entries/bulk", { token, body: [entry("2026-04-17")] })
        assert.strictEqual(array.status, 201, JSON.stringify(array.body))

        const refused = await app.call("POST", "/tracker-entries/bulk", {
          token,
          body: { entries: [entry("2026-04-18"), entry("2026-04-19", { duration: 5 })] }
        })
        assertInvalid(refused, "entries.1.duration")
        const unknownProject = await app.call("POST", "/tracker-entries/bulk", {
          token,
          body: {
            entries: [entry("2026-04-18"), entry("2026-04-19", { projectId: "00000000-0000-4000-8000-000000000000" })]
          }
        })
        assert.strictEqual(unknownProject.status, 404)
        assert.include(unknownProject.body.message, "entries.1.projectId")
        const all = await app.call("GET", "/tracker-entries?from=2026-04-01&to=2026-04-30", { token })
        assert.strictEqual(all.body.data.length, 3)
      })
  )
})
