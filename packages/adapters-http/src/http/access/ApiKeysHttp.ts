import { ApiKeyId, ApiKeys, apiKeyView, Teams } from "@svc/domain"
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { badRequest, CurrentUser, forbidden, notFound } from "../../api/shared/index.ts"
import { listPaging, orServiceUnavailable } from "../shared/index.ts"

export const ApiKeysHttp = HttpApiBuilder.group(Api, "apiKeys", (handlers) =>
  Effect.gen(function* () {
    const { pageOf, signedPage } = yield* listPaging
    const apiKeys = yield* ApiKeys
    const teams = yield* Teams

    const currentTeam = Effect.gen(function* () {
      const user = yield* CurrentUser
      const membership = yield* teams.current(user)
      if (Option.isNone(membership)) return yield* forbidden("team_required", "create a team first (POST /teams)")
      return { userId: user.id, teamId: membership.value.team.id, role: membership.value.role }
    })

    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const actor = yield* currentTeam
          const created = yield* apiKeys
            .create(actor, { name: payload.name, scopes: payload.scopes })
            .pipe(
              Effect.catchTag("UnknownScope", (e) =>
                Effect.fail(
                  badRequest("validation_failed", `unknown scope ${e.scope}`, [
                    { path: "scopes", message: `unknown scope ${e.scope}` }
                  ])
                )
              )
            )
          return { ...apiKeyView(created.key), secret: created.secret }
        }).pipe(orServiceUnavailable)
      )
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const actor = yield* currentTeam
          const scope = `api-keys:${actor.teamId}`
          const result = yield* apiKeys.list(actor.teamId, yield* pageOf(scope, query))
          return yield* signedPage(scope, { data: result.data.map(apiKeyView), meta: result.meta })
        }).pipe(orServiceUnavailable)
      )
      .handle("revoke", ({ params }) =>
        Effect.gen(function* () {
          const actor = yield* currentTeam
          const key = yield* apiKeys.revoke(actor, ApiKeyId.make(params.id)).pipe(
            Effect.catchTags({
              ApiKeyNotFound: () => Effect.fail(notFound(`no API key ${params.id}`)),
              ApiKeyRevokeForbidden: () =>
                Effect.fail(forbidden("forbidden", "members may revoke only their own keys; ask an owner or admin"))
            })
          )
          return apiKeyView(key)
        }).pipe(orServiceUnavailable)
      )
  })
)
