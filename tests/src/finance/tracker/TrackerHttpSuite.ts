import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import type { Layer } from "effect"
import { assertInvalid, type Client, setUpKeyedTeam, withAppOnPorts } from "../../support/HttpScenarios.ts"
import { assertNeedsScope } from "../FinanceHttpSetup.ts"

const project = async (app: Client, token: string, body: Record<string, unknown> = {}) => {
  const created = await app.call("POST", "/tracker-projects", { token, body: { name: "Website", ...body } })
  assert.strictEqual(created.status, 201, JSON.stringify(created.body))
  return created.body
}

const entry = async (app: Client, token: string, body: Record<string, unknown>) => {
  const created = await app.call("POST", "/tracker-entries", { token, body })
  assert.strictEqual(created.status, 201, JSON.stringify(created.body))
  return created.body
}

const assertMissing = (answer: { status: number; body: { error: string; message: string } }, field: string) => {
  assert.strictEqual(answer.status, 404, JSON.stringify(answer.body))
  assert.strictEqual(answer.body.error, "not_found")
  assert.include(answer.body.message, `${field}:`)
}

/** The tracker routes over HTTP on whichever ports the caller provides. */
export const trackerHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`tracker over HTTP (${name})`, (it) => {
    it.effect("projects: SPEC shape, totals from entries at the hourly rate (rounded once), update, delete", () =>
      withAppOnPorts(async (app) => {
        const { owner: token } = await setUpKeyedTeam(app)
        const customer = (await app.call("POST", "/customers", { token, body: { name: "Globex" } })).body
        const tag = (await app.call("POST", "/tags", { token, body: { name: "design" } })).body
        const site = await project(app, token, {
          description: "New site",
          billable: true,
          rate: 75,
          currency: "USD",
          estimate: 10,
          customerId: customer.id,
          tagIds: [tag.id]
        })
        assert.deepStrictEqual(site, {
          id: site.id,
          name: "Website",
          description: "New site",
          status: "in_progress",
          billable: true,
          rate: 75,
          estimate: 10,
          currency: "USD",
          createdAt: site.createdAt,
          totalDuration: 0,
          totalAmount: 0,
          customer: { id: customer.id, name: "Globex", website: "" },
          tags: [{ id: tag.id, name: "design" }],
          users: null
        })
        await entry(app, token, { projectId: site.id, start: "2026-03-02T09:00:00Z", stop: "2026-03-02T10:00:00Z" })
        await entry(app, token, { projectId: site.id, start: "2026-03-03T09:00:00Z", duration: 1800 })
        const withTotals = (await app.call("GET", `/tracker-projects/${site.id}`, { token })).body
        assert.strictEqual(withTotals.totalDuration, 5400)
        assert.strictEqual(withTotals.totalAmount, 112.5)

        const tiny = await project(app, token, { name: "Tiny", billable: true, rate: 0.18, currency: "USD" })
        await entry(app, token, { projectId: tiny.id, start: "2026-03-02T09:00:00Z", duration: 100 })
        const unbilled = await project(app, token, { name: "Internal", rate: 50, currency: "EUR" })
        await entry(app, token, { projectId: unbilled.id, start: "2026-03-02T09:00:00Z", duration: 3600 })
        const listed = (await app.call("GET", "/tracker-projects?limit=2", { token })).body
        assert.deepStrictEqual(
          listed.data.map((p: { name: string; totalAmount: number; totalDuration: number }) => [
            p.name,
            p.totalDuration,
            p.totalAmount
          ]),
          [
            ["Internal", 3600, 0],
            ["Tiny", 100, 0.01]
          ]
        )
        assert.isTrue(listed.meta.hasNextPage)
        const rest = (await app.call("GET", `/tracker-projects?cursor=${listed.meta.cursor}`, { token })).body
        assert.deepStrictEqual(
          rest.data.map((p: { id: string }) => p.id),
          [site.id]
        )

        const updated = await app.call("PATCH", `/tracker-projects/${site.id}`, {
          token,
          body: { status: "completed", customerId: null, tagIds: [], rate: 80.5 }
        })
        assert.strictEqual(updated.status, 200, JSON.stringify(updated.body))
        assert.deepInclude(updated.body, { status: "completed", customer: null, tags: [], rate: 80.5 })
        assert.strictEqual(updated.body.totalAmount, 120.75)

        const deleted = await app.call("DELETE", `/tracker-projects/${site.id}`, { token })
        assert.deepStrictEqual(deleted.body, { id: site.id, object: "tracker_project", deleted: true })
        assert.strictEqual((await app.call("GET", `/tracker-projects/${site.id}`, { token })).status, 404)
        const march = (await app.call("GET", "/tracker-entries?from=2026-03-01&to=2026-03-31", { token })).body
        assert.deepStrictEqual(
          march.data.map((e: { projectId: string }) => e.projectId).sort(),
          [tiny.id, unbilled.id].sort()
        )
      })
    )

    it.effect("entries: date range (UTC days, inclusive) and project filters, paging, bulk, update, delete", () =>
      withAppOnPorts(async (app) => {
        const { owner: token } = await setUpKeyedTeam(app)
        const site = await project(app, token)
        const other = await project(app, token, { name: "Other" })
        const bulk = await app.call("POST", "/tracker-entries/bulk", {
          token,
          body: [
            { projectId: site.id, start: "2026-02-28T23:59:59Z", duration: 60 },
            { projectId: site.id, start: "2026-03-01T00:00:00Z", duration: 60, description: "first" },
            { projectId: other.id, start: "2026-03-15T12:00:00+02:00", stop: "2026-03-15T13:30:00+02:00" },
            { projectId: site.id, start: "2026-03-31T23:59:59.500Z", duration: 1 },
            { projectId: site.id, start: "2026-04-01T00:00:00Z", duration: 60 }
          ]
        })
        assert.strictEqual(bulk.status, 201, JSON.stringify(bulk.body))
        assert.strictEqual(bulk.body.data.length, 5)
        assert.deepInclude(bulk.body.data[2], {
          projectId: other.id,
          start: "2026-03-15T10:00:00.000Z",
          stop: "2026-03-15T11:30:00.000Z",
          duration: 5400,
          description: null
        })
        const march = (await app.call("GET", "/tracker-entries?from=2026-03-01&to=2026-03-31", { token })).body
        assert.deepStrictEqual(
          march.data.map((e: { start: string }) => e.start),
          ["2026-03-31T23:59:59.500Z", "2026-03-15T10:00:00.000Z", "2026-03-01T00:00:00.000Z"]
        )
        const ofSite = (
          await app.call("GET", `/tracker-entries?from=2026-03-01&to=2026-03-31&projectId=${site.id}&limit=1`, {
            token
          })
        ).body
        assert.deepStrictEqual(
          ofSite.data.map((e: { start: string }) => e.start),
          ["2026-03-31T23:59:59.500Z"]
        )
        const next = (
          await app.call(
            "GET",
            `/tracker-entries?from=2026-03-01&to=2026-03-31&projectId=${site.id}&limit=1&cursor=${ofSite.meta.cursor}`,
            { token }
          )
        ).body
        assert.deepStrictEqual(
          next.data.map((e: { description: string }) => e.description),
          ["first"]
        )
        assert.isFalse(next.meta.hasNextPage)
        const oneDay = (await app.call("GET", "/tracker-entries?from=2026-03-01&to=2026-03-01", { token })).body
        assert.strictEqual(oneDay.data.length, 1)

        const first = bulk.body.data[1]
        const moved = await app.call("PATCH", `/tracker-entries/${first.id}`, {
          token,
          body: { projectId: other.id, stop: "2026-03-01T02:00:00Z", description: null }
        })
        assert.strictEqual(moved.status, 200, JSON.stringify(moved.body))
        assert.deepInclude(moved.body, { projectId: other.id, duration: 7200, description: null })
        const stretched = await app.call("PATCH", `/tracker-entries/${first.id}`, { token, body: { duration: 30 } })
        assert.deepInclude(stretched.body, { stop: "2026-03-01T00:00:30.000Z", duration: 30 })
        assert.strictEqual((await app.call("GET", `/tracker-projects/${other.id}`, { token })).body.totalDuration, 5430)
        const gone = await app.call("DELETE", `/tracker-entries/${first.id}`, { token })
        assert.deepStrictEqual(gone.body, { id: first.id, object: "tracker_entry", deleted: true })
        assert.strictEqual((await app.call("DELETE", `/tracker-entries/${first.id}`, { token })).status, 404)
      })
    )

    it.effect("bad input names the field and stores nothing; another team's project is 404", () =>
      withAppOnPorts(async (app) => {
        const acme = await setUpKeyedTeam(app)
        const globex = await setUpKeyedTeam(app)
        const token = acme.owner
        const site = await project(app, token)
        const theirs = await project(app, globex.owner, { name: "Theirs" })
        const start = "2026-03-02T09:00:00Z"
        const cases: ReadonlyArray<[unknown, string]> = [
          [{ projectId: site.id, start, stop: "2026-03-02T08:59:59Z" }, "stop"],
          [{ projectId: site.id, start, duration: -5 }, "duration"],
          [{ projectId: site.id, start, duration: 1.5 }, "duration"],
          [{ projectId: site.id, start }, "stop"],
          [{ projectId: site.id, start, stop: "2026-03-02T10:00:00Z", duration: 60 }, "duration"],
          [{ projectId: site.id, start: "2026-03-02 09:00", duration: 60 }, "start"],
          [{ projectId: site.id, start: "2026-02-30T09:00:00Z", duration: 60 }, "start"],
          [{ projectId: site.id, start, stop: "2026-03-02T25:00:00Z" }, "stop"],
          [{ projectId: "nope", start, duration: 60 }, "projectId"]
        ]
        for (const [body, field] of cases) {
          assertInvalid(await app.call("POST", "/tracker-entries", { token, body }), field)
        }
        const unknown = crypto.randomUUID()
        assertMissing(
          await app.call("POST", "/tracker-entries", { token, body: { projectId: unknown, start, duration: 1 } }),
          "projectId"
        )
        assertMissing(
          await app.call("POST", "/tracker-entries", { token, body: { projectId: theirs.id, start, duration: 1 } }),
          "projectId"
        )
        assertInvalid(
          await app.call("POST", "/tracker-entries/bulk", {
            token,
            body: [
              { projectId: site.id, start, duration: 60 },
              { projectId: site.id, start, stop: "2026-03-01T00:00:00Z" }
            ]
          }),
          "1.stop"
        )
        assertMissing(
          await app.call("POST", "/tracker-entries/bulk", {
            token,
            body: [
              { projectId: site.id, start, duration: 60 },
              { projectId: theirs.id, start, duration: 60 }
            ]
          }),
          "1.projectId"
        )
        assertInvalid(await app.call("POST", "/tracker-entries/bulk", { token, body: [] }), "body")
        const all = await app.call("GET", "/tracker-entries?from=2026-01-01&to=2026-12-31", { token })
        assert.deepStrictEqual(all.body.data, [])
        assertInvalid(await app.call("GET", "/tracker-entries?from=2026-03-02&to=2026-03-01", { token }), "query.to")
        assertInvalid(await app.call("GET", "/tracker-entries?from=2025-01-01&to=2026-03-01", { token }), "query.to")
        assertInvalid(await app.call("GET", "/tracker-entries?to=2026-03-01", { token }), "query.from")
        assertInvalid(await app.call("GET", "/tracker-entries?from=2026-02-30&to=2026-03-01", { token }), "query.from")

        const projectCases: ReadonlyArray<[unknown, string]> = [
          [{}, "name"],
          [{ name: " " }, "name"],
          [{ name: "A", rate: 10 }, "currency"],
          [{ name: "A", rate: 10.005, currency: "USD" }, "rate"],
          [{ name: "A", rate: -1, currency: "USD" }, "rate"],
          [{ name: "A", currency: "XYZ" }, "currency"],
          [{ name: "A", status: "paused" }, "status"],
          [{ name: "A", estimate: -2 }, "estimate"],
          [{ name: "A", color: "red" }, "color"]
        ]
        for (const [body, field] of projectCases) {
          assertInvalid(await app.call("POST", "/tracker-projects", { token, body }), field)
        }
        const foreignCustomer = (await app.call("POST", "/customers", { token: globex.owner, body: { name: "C" } }))
          .body
        assertMissing(
          await app.call("POST", "/tracker-projects", { token, body: { name: "A", customerId: foreignCustomer.id } }),
          "customerId"
        )
        assertMissing(
          await app.call("POST", "/tracker-projects", { token, body: { name: "A", tagIds: [crypto.randomUUID()] } }),
          "tagIds"
        )
        assert.deepStrictEqual(
          (await app.call("GET", "/tracker-projects", { token })).body.data.map((p: { id: string }) => p.id),
          [site.id]
        )
        for (const [method, body] of [
          ["GET", undefined],
          ["PATCH", { name: "Mine now" }],
          ["DELETE", undefined]
        ] as const) {
          const answer = await app.call(method, `/tracker-projects/${theirs.id}`, { token, ...(body ? { body } : {}) })
          assert.strictEqual(answer.status, 404, `${method} ${JSON.stringify(answer.body)}`)
        }
        const theirEntry = await entry(app, globex.owner, { projectId: theirs.id, start, duration: 60 })
        assert.strictEqual(
          (await app.call("PATCH", `/tracker-entries/${theirEntry.id}`, { token, body: { duration: 1 } })).status,
          404
        )
        assert.strictEqual((await app.call("DELETE", `/tracker-entries/${theirEntry.id}`, { token })).status, 404)
      })
    )

    it.effect("timer: of concurrent starts exactly one wins, the others 409; stop once; one timer per user", () =>
      withAppOnPorts(async (app) => {
        const acme = await setUpKeyedTeam(app)
        const globex = await setUpKeyedTeam(app)
        const token = acme.owner
        const site = await project(app, token)
        const theirs = await project(app, globex.owner)
        assert.deepStrictEqual((await app.call("GET", "/tracker-entries/timer/current", { token })).body, {
          data: null
        })
        const starts = await Promise.all(
          Array.from({ length: 6 }, () =>
            app.call("POST", "/tracker-entries/timer/start", { token, body: { projectId: site.id, description: "x" } })
          )
        )
        const won = starts.filter((s) => s.status === 201)
        assert.strictEqual(won.length, 1, JSON.stringify(starts.map((s) => s.body)))
        for (const lost of starts.filter((s) => s.status !== 201)) {
          assert.strictEqual(lost.status, 409, JSON.stringify(lost.body))
          assert.strictEqual(lost.body.error, "timer_running")
        }
        const running = won[0]?.body
        assert.deepInclude(running, { projectId: site.id, stop: null, duration: null, description: "x" })
        assert.deepStrictEqual((await app.call("GET", "/tracker-entries/timer/current", { token })).body, {
          data: running
        })
        const elsewhere = await app.call("POST", "/tracker-entries/timer/start", {
          token: globex.owner,
          body: { projectId: theirs.id }
        })
        assert.strictEqual(elsewhere.status, 201, JSON.stringify(elsewhere.body))
        assertMissing(
          await app.call("POST", "/tracker-entries/timer/start", { token: globex.owner, body: { projectId: site.id } }),
          "projectId"
        )

        const stops = await Promise.all([
          app.call("POST", "/tracker-entries/timer/stop", { token }),
          app.call("POST", "/tracker-entries/timer/stop", { token })
        ])
        const stopped = stops.find((s) => s.status === 200)
        assert.isDefined(stopped, JSON.stringify(stops.map((s) => s.body)))
        assert.strictEqual(stops.filter((s) => s.status === 409).length, 1)
        assert.strictEqual(stopped?.body.id, running.id)
        assert.isAtLeast(stopped?.body.duration, 0)
        assert.isTrue(stopped?.body.stop >= running.start)
        assert.deepStrictEqual((await app.call("GET", "/tracker-entries/timer/current", { token })).body, {
          data: null
        })
        const again = await app.call("POST", "/tracker-entries/timer/stop", { token })
        assert.strictEqual(again.status, 409)
        assert.strictEqual(again.body.error, "timer_not_running")
        assert.strictEqual(
          (await app.call("POST", "/tracker-entries/timer/start", { token, body: { projectId: site.id } })).status,
          201
        )
      })
    )

    it.effect("scopes: tracker-projects.* and tracker-entries.* each guard their routes", () =>
      withAppOnPorts(async (app) => {
        const { owner: token } = await setUpKeyedTeam(app)
        const site = await project(app, token)
        const key = async (scopes: ReadonlyArray<string>) =>
          (await app.call("POST", "/api-keys", { token, body: { name: "k", scopes } })).body.secret
        const projectsReader = await key(["tracker-projects.read"])
        assert.strictEqual((await app.call("GET", "/tracker-projects", { token: projectsReader })).status, 200)
        assertNeedsScope(
          await app.call("POST", "/tracker-projects", { token: projectsReader, body: { name: "B" } }),
          "tracker-projects.write"
        )
        assertNeedsScope(
          await app.call("GET", "/tracker-entries?from=2026-01-01&to=2026-01-02", { token: projectsReader }),
          "tracker-entries.read"
        )
        const entriesReader = await key(["tracker-entries.read"])
        assert.strictEqual(
          (await app.call("GET", "/tracker-entries/timer/current", { token: entriesReader })).status,
          200
        )
        assertNeedsScope(
          await app.call("POST", "/tracker-entries/timer/start", {
            token: entriesReader,
            body: { projectId: site.id }
          }),
          "tracker-entries.write"
        )
        assert.strictEqual((await app.call("GET", "/tracker-projects")).status, 401)
      })
    )
  })
