import { entryRangeOf, Tracker, toPage, trackerEntryView } from "@svc/domain"
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../../api/Api.ts"
import { listPaging, orServiceUnavailable, principalTeam } from "../../shared/index.ts"
import { trackerRefusals } from "./TrackerFailures.ts"

/** Whether a bulk body is the twin's `{entries}` rather than the array. */
const isTwinBulk = <A, B extends object>(body: ReadonlyArray<A> | B): body is B => !Array.isArray(body)

export const TrackerEntriesHttp = HttpApiBuilder.group(Api, "trackerEntries", (handlers) =>
  Effect.gen(function* () {
    const { pageOf, signedPage } = yield* listPaging
    const tracker = yield* Tracker
    const refused = trackerRefusals()
    return handlers
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          const range = yield* Effect.fromResult(entryRangeOf(query.from, query.to))
          const projectId = query.projectId ?? null
          const scope = `tracker-entries:${teamId}:${query.from}:${query.to}:${projectId ?? ""}`
          const page = yield* pageOf(scope, query)
          const entries = yield* tracker.listEntries(teamId, { ...range, projectId }, page)
          const positioned = entries.map((entry) => ({ createdAt: entry.start, id: entry.id, entry }))
          return yield* signedPage(
            scope,
            toPage(page, positioned, (p) => trackerEntryView(p.entry))
          )
        }).pipe(trackerRefusals("query."), orServiceUnavailable)
      )
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const { principal, teamId } = yield* principalTeam
          if (payload.dates !== undefined) {
            const entries = yield* tracker.createEntries(teamId, principal.userId, [payload], () => "")
            return { data: entries.map(trackerEntryView) }
          }
          return trackerEntryView(yield* tracker.createEntry(teamId, principal.userId, payload))
        }).pipe(refused, orServiceUnavailable)
      )
      .handle("createMany", ({ payload }) =>
        Effect.gen(function* () {
          const { principal, teamId } = yield* principalTeam
          const entries = isTwinBulk(payload)
            ? yield* tracker.createEntries(teamId, principal.userId, payload.entries, (i) => `entries.${i}.`)
            : yield* tracker.createEntries(teamId, principal.userId, payload)
          return { data: entries.map(trackerEntryView) }
        }).pipe(refused, orServiceUnavailable)
      )
      .handle("startTimer", ({ payload }) =>
        Effect.gen(function* () {
          const { principal, teamId } = yield* principalTeam
          return trackerEntryView(yield* tracker.startTimer(teamId, principal.userId, payload))
        }).pipe(refused, orServiceUnavailable)
      )
      .handle("stopTimer", () =>
        Effect.gen(function* () {
          const { principal, teamId } = yield* principalTeam
          return trackerEntryView(yield* tracker.stopTimer(teamId, principal.userId))
        }).pipe(refused, orServiceUnavailable)
      )
      .handle("currentTimer", () =>
        Effect.gen(function* () {
          const { principal, teamId } = yield* principalTeam
          const running = yield* tracker.currentTimer(teamId, principal.userId)
          return { data: Option.getOrNull(Option.map(running, trackerEntryView)) }
        }).pipe(orServiceUnavailable)
      )
      .handle("timerStatus", () =>
        Effect.gen(function* () {
          const { principal, teamId } = yield* principalTeam
          return { data: yield* tracker.timerStatus(teamId, principal.userId) }
        }).pipe(orServiceUnavailable)
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          return trackerEntryView(yield* tracker.getEntry(teamId, params.id))
        }).pipe(refused, orServiceUnavailable)
      )
      .handle("update", ({ params, payload }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          return trackerEntryView(yield* tracker.updateEntry(teamId, params.id, payload))
        }).pipe(refused, orServiceUnavailable)
      )
      .handle("delete", ({ params }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          const removed = yield* tracker.removeEntry(teamId, params.id)
          return { id: removed.id, object: "tracker_entry" as const, deleted: true as const }
        }).pipe(refused, orServiceUnavailable)
      )
  })
)
