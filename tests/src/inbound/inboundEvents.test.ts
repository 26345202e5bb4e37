import { assert } from "@effect/vitest"
import { PortsMemory } from "@svc/adapters-memory"
import { Ledger } from "@svc/domain"
import { Effect } from "effect"
import { memberToken } from "../support/TeamMembers.ts"
import { call, type RunningApp, withApp } from "../support/WebhooksHarness.ts"
import { appEnv, deposit, inboundOver, liveBalance, newTeam, settle } from "./InboundSetup.ts"

const EVENTS = "/treasury/inbound-events"

/** A team whose EUR deposit parked at once (it has no EUR account), and the parked event's id. */
const teamWithParkedDeposit = (app: RunningApp, eventId: string) =>
  Effect.gen(function* () {
    const team = yield* newTeam(app)
    assert.strictEqual((yield* deposit(app, "banking-a", eventId, team.teamId, 900, "EUR")).status, 200)
    yield* settle()
    const listed = yield* call(app, "GET", EVENTS, team.token)
    assert.strictEqual(listed.status, 200)
    const event = listed.body.data.find((e: { providerEventId: string }) => e.providerEventId === eventId)
    assert.isDefined(event, "the parked deposit is listed for its team")
    return { ...team, eventId: event.id as string }
  })

inboundOver(PortsMemory)("inbound event review over HTTP", (it) => {
  it.effect("an owner reads a parked deposit, fixes the cause and retries it: the worker credits it once", () =>
    withApp(appEnv(), (app) =>
      Effect.gen(function* () {
        const { teamId, token, eventId } = yield* teamWithParkedDeposit(app, "dep_eur_1")
        const read = yield* call(app, "GET", `${EVENTS}/${eventId}`, token)
        assert.strictEqual(read.status, 200)
        assert.deepInclude(read.body, {
          id: eventId,
          object: "inbound_event",
          endpoint: "banking-a",
          providerEventId: "dep_eur_1",
          type: "deposit.received",
          status: "parked",
          attempts: 1,
          nextAttemptAt: null,
          discardedAt: null,
          discardedBy: null
        })
        assert.match(read.body.lastError, /no live EUR spend account/)
        assert.deepStrictEqual(read.body.payload.data, { team_id: teamId, amount: 900, currency: "EUR" })
        assert.notProperty(read.body, "headers")
        assert.notProperty(read.body, "teamId")

        yield* Ledger.use((ledger) => ledger.openTeamAccounts({ teamId, mode: "live", name: "Euro", currency: "EUR" }))
        const retried = yield* call(app, "POST", `${EVENTS}/${eventId}/retry`, token)
        assert.strictEqual(retried.status, 200)
        assert.strictEqual(retried.body.status, "pending")
        assert.strictEqual(retried.body.attempts, 0)
        assert.isString(retried.body.nextAttemptAt)
        const again = yield* call(app, "POST", `${EVENTS}/${eventId}/retry`, token)
        assert.deepStrictEqual([again.status, again.body.status], [200, "pending"], "a repeated retry is harmless")
        assert.deepStrictEqual((yield* call(app, "GET", EVENTS, token)).body.data, [], "no longer parked")

        yield* settle()
        const done = yield* call(app, "GET", `${EVENTS}/${eventId}`, token)
        assert.deepStrictEqual([done.body.status, done.body.attempts], ["processed", 1])
        const accounts = yield* Ledger.use((ledger) => ledger.accounts(teamId, { mode: "live", kind: "spend" }))
        assert.strictEqual(accounts.find((a) => a.currency === "EUR")?.balance.posted, 900)
        assert.strictEqual(yield* liveBalance(teamId), 0, "the USD account is untouched")
        const late = yield* call(app, "POST", `${EVENTS}/${eventId}/retry`, token)
        assert.deepStrictEqual([late.status, late.body.error], [409, "inbound_event_not_parked"])
        assert.match(late.body.message, /processed, not parked/)
      })
    )
  )

  it.effect("an admin discards a parked event: kept for audit, never processed, and no longer retryable", () =>
    withApp(appEnv(), (app) =>
      Effect.gen(function* () {
        const { teamId, eventId } = yield* teamWithParkedDeposit(app, "dep_eur_2")
        const admin = yield* memberToken(teamId, "admin")
        const discarded = yield* call(app, "POST", `${EVENTS}/${eventId}/discard`, admin.token)
        assert.strictEqual(discarded.status, 200)
        assert.strictEqual(discarded.body.status, "discarded")
        assert.strictEqual(discarded.body.discardedBy, admin.id)
        assert.isString(discarded.body.discardedAt)
        const twice = yield* call(app, "POST", `${EVENTS}/${eventId}/discard`, admin.token)
        assert.deepStrictEqual(twice.body, discarded.body, "discarding again changes nothing")
        const retry = yield* call(app, "POST", `${EVENTS}/${eventId}/retry`, admin.token)
        assert.deepStrictEqual(
          [retry.status, retry.body.error, retry.body.code],
          [409, "inbound_event_not_parked", 409]
        )
        yield* settle()
        const audit = yield* call(app, "GET", `${EVENTS}?status=discarded`, admin.token)
        assert.deepStrictEqual(
          audit.body.data.map((e: { id: string; status: string }) => [e.id, e.status]),
          [[eventId, "discarded"]]
        )
      })
    )
  )

  it.effect("members get 403, other teams 404, and bad input 400 naming the field", () =>
    withApp(appEnv(), (app) =>
      Effect.gen(function* () {
        const { teamId, token, eventId } = yield* teamWithParkedDeposit(app, "dep_eur_3")
        const member = yield* memberToken(teamId, "member")
        for (const [method, path] of [
          ["GET", EVENTS],
          ["GET", `${EVENTS}/${eventId}`],
          ["POST", `${EVENTS}/${eventId}/retry`],
          ["POST", `${EVENTS}/${eventId}/discard`]
        ] as const) {
          const answer = yield* call(app, method, path, member.token)
          assert.deepStrictEqual([answer.status, answer.body.error], [403, "forbidden"], `${method} ${path}`)
        }
        assert.strictEqual((yield* call(app, "GET", EVENTS)).status, 401)

        const other = yield* newTeam(app)
        assert.deepStrictEqual((yield* call(app, "GET", EVENTS, other.token)).body.data, [])
        for (const [method, path] of [
          ["GET", `${EVENTS}/${eventId}`],
          ["POST", `${EVENTS}/${eventId}/retry`],
          ["POST", `${EVENTS}/${eventId}/discard`],
          ["GET", `${EVENTS}/${crypto.randomUUID()}`]
        ] as const) {
          const answer = yield* call(app, method, path, other.token)
          assert.deepStrictEqual([answer.status, answer.body.error], [404, "not_found"], `${method} ${path}`)
        }
        assert.strictEqual((yield* call(app, "GET", `${EVENTS}/${eventId}`, token)).body.status, "parked", "unchanged")

        const badStatus = yield* call(app, "GET", `${EVENTS}?status=lost`, token)
        assert.deepStrictEqual([badStatus.status, badStatus.body.error], [400, "validation_failed"])
        assert.strictEqual(badStatus.body.details[0].path, "query.status")
        const badId = yield* call(app, "POST", `${EVENTS}/not-a-uuid/retry`, token)
        assert.deepStrictEqual([badId.status, badId.body.details[0].path], [400, "params.id"])
      })
    )
  )

  it.effect("the list pages with cursors signed for the team and status", () =>
    withApp(appEnv(), (app) =>
      Effect.gen(function* () {
        const team = yield* newTeam(app)
        for (const id of ["dep_page_1", "dep_page_2", "dep_page_3"]) {
          yield* deposit(app, "banking-a", id, team.teamId, 100, "EUR")
        }
        yield* settle()
        const first = yield* call(app, "GET", `${EVENTS}?limit=2`, team.token)
        assert.strictEqual(first.body.data.length, 2)
        assert.isTrue(first.body.meta.hasNextPage)
        const cursor = encodeURIComponent(first.body.meta.cursor)
        const second = yield* call(app, "GET", `${EVENTS}?limit=2&cursor=${cursor}`, team.token)
        assert.strictEqual(second.body.data.length, 1)
        assert.deepStrictEqual(second.body.meta, { cursor: null, hasNextPage: false, hasPreviousPage: true })
        const seen = [...first.body.data, ...second.body.data].map(
          (e: { providerEventId: string }) => e.providerEventId
        )
        assert.sameMembers(seen, ["dep_page_1", "dep_page_2", "dep_page_3"])
        const otherStatus = yield* call(app, "GET", `${EVENTS}?status=discarded&cursor=${cursor}`, team.token)
        assert.deepStrictEqual([otherStatus.status, otherStatus.body.error], [400, "invalid_cursor"])
        const other = yield* newTeam(app)
        const foreign = yield* call(app, "GET", `${EVENTS}?cursor=${cursor}`, other.token)
        assert.deepStrictEqual([foreign.status, foreign.body.error], [400, "invalid_cursor"])
      })
    )
  )
})
