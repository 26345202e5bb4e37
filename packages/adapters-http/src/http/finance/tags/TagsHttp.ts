import { type TagId, type TagNameTaken, type TagNotFound, Tags, tagView } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../../api/Api.ts"
import { conflict } from "../../../api/shared/index.ts"
import { missingResource, orServiceUnavailable, principalTeamId } from "../../shared/index.ts"

const notFound = (e: TagNotFound) => Effect.fail(missingResource("tag", e.tagId, e.field))
const nameTaken = (e: TagNameTaken) =>
  Effect.fail(conflict("name_taken", `the team already has a tag named ${JSON.stringify(e.name)}`))

export const TagsHttp = HttpApiBuilder.group(Api, "tags", (handlers) =>
  Effect.gen(function* () {
    const tags = yield* Tags
    return handlers
      .handle("list", () =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return { data: (yield* tags.list(teamId)).map(tagView) }
        }).pipe(orServiceUnavailable)
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return tagView(yield* tags.get(teamId, params.id as TagId))
        }).pipe(Effect.catchTag("TagNotFound", notFound), orServiceUnavailable)
      )
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return tagView(yield* tags.create(teamId, payload.name))
        }).pipe(Effect.catchTag("TagNameTaken", nameTaken), orServiceUnavailable)
      )
      .handle("update", ({ params, payload }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return tagView(yield* tags.rename(teamId, params.id as TagId, payload.name))
        }).pipe(Effect.catchTags({ TagNotFound: notFound, TagNameTaken: nameTaken }), orServiceUnavailable)
      )
      .handle("delete", ({ params }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          return tagView(yield* tags.remove(teamId, params.id as TagId))
        }).pipe(Effect.catchTag("TagNotFound", notFound), orServiceUnavailable)
      )
  })
)
