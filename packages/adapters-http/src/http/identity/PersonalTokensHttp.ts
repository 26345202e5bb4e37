import { PersonalTokens, personalTokenView } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { CurrentDashboardSession, notFound } from "../../api/shared/index.ts"
import { listPaging, orServiceUnavailable } from "../shared/index.ts"

export const PersonalTokensHttp = HttpApiBuilder.group(Api, "personalTokens", (handlers) =>
  Effect.gen(function* () {
    const { pageOfList } = yield* listPaging
    const tokens = yield* PersonalTokens
    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const { user } = yield* CurrentDashboardSession
          const created = yield* tokens.create(user, { name: payload.name, days: payload.expiresInDays })
          return { ...personalTokenView(created.session), secret: created.secret }
        }).pipe(orServiceUnavailable)
      )
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const { user } = yield* CurrentDashboardSession
          return yield* pageOfList(`personal-tokens:${user.id}`, query, yield* tokens.list(user), personalTokenView)
        }).pipe(orServiceUnavailable)
      )
      .handle("revoke", ({ params }) =>
        Effect.gen(function* () {
          const { user } = yield* CurrentDashboardSession
          const revoked = yield* tokens
            .revoke(user, params.id)
            .pipe(
              Effect.catchTag("PersonalTokenNotFound", () => Effect.fail(notFound(`no personal token ${params.id}`)))
            )
          return personalTokenView(revoked)
        }).pipe(orServiceUnavailable)
      )
  })
)
