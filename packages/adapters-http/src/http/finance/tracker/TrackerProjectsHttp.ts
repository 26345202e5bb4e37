import { Tracker, toPage, trackerProjectView } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../../api/Api.ts"
import { listPaging, orServiceUnavailable, principalTeamId } from "../../shared/index.ts"
import { trackerRefusals } from "./TrackerFailures.ts"

export const TrackerProjectsHttp = HttpApiBuilder.group(Api, "trackerProjects", (handlers) =>
  Effect.gen(function* () {
    const { pageOf, signedPage } = yield* listPaging
    const tracker = yield* Tracker
    const refused = trackerRefusals()
    return handlers
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          const scope = `tracker-projects:${teamId}`
          const page = yield* pageOf(scope, query)
          return yield* signedPage(scope, toPage(page, yield* tracker.listProjects(teamId, page), trackerProjectView))
        }).pipe(orServiceUnavailable)
      )
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return trackerProjectView(yield* tracker.createProject(teamId, payload))
        }).pipe(refused, orServiceUnavailable)
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return trackerProjectView(yield* tracker.getProject(teamId, params.id))
        }).pipe(refused, orServiceUnavailable)
      )
      .handle("update", ({ params, payload }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return trackerProjectView(yield* tracker.updateProject(teamId, params.id, payload))
        }).pipe(refused, orServiceUnavailable)
      )
      .handle("delete", ({ params }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          const removed = yield* tracker.removeProject(teamId, params.id)
          return { id: removed.id, object: "tracker_project" as const, deleted: true as const }
        }).pipe(refused, orServiceUnavailable)
      )
  })
)
