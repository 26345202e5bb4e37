import {
  type CryptoDestinationForbidden,
  type CryptoDestinationInvalid,
  CryptoDestinations,
  cryptoDestinationView,
  toPage
} from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { forbidden, notFound } from "../../api/shared/index.ts"
import { invalidField, listPaging, orServiceUnavailable, principalTeam } from "../shared/index.ts"

const destinationInvalid = (e: CryptoDestinationInvalid) => Effect.fail(invalidField(e.field, e.message))
const destinationForbidden = (e: CryptoDestinationForbidden) =>
  Effect.fail(forbidden("forbidden", `only the team's owners and admins may ${e.action}`))

/** The team a person acts for, as the allow-list's actor. */
const actor = Effect.map(principalTeam, ({ principal, teamId, role }) => ({
  teamId,
  userId: principal.userId,
  role
}))

export const CryptoDestinationsHttp = HttpApiBuilder.group(Api, "cryptoDestinations", (handlers) =>
  Effect.gen(function* () {
    const destinations = yield* CryptoDestinations
    const { pageOf, signedPage } = yield* listPaging
    const missing = (id: string) => () => Effect.fail(notFound(`no crypto destination ${id}`))
    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          return cryptoDestinationView(yield* destinations.add(yield* actor, payload))
        }).pipe(
          Effect.catchTags({
            CryptoDestinationInvalid: destinationInvalid,
            CryptoDestinationForbidden: destinationForbidden
          }),
          orServiceUnavailable
        )
      )
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          const mode = query.mode ?? "live"
          const scope = `crypto-destinations:${teamId}:${mode}`
          const page = yield* pageOf(scope, query)
          const rows = yield* destinations.list(teamId, mode, page)
          return yield* signedPage(scope, toPage(page, rows, cryptoDestinationView))
        }).pipe(orServiceUnavailable)
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          return cryptoDestinationView(yield* destinations.get(teamId, params.id))
        }).pipe(Effect.catchTag("CryptoDestinationNotFound", missing(params.id)), orServiceUnavailable)
      )
      .handle("remove", ({ params }) =>
        Effect.gen(function* () {
          return cryptoDestinationView(yield* destinations.remove(yield* actor, params.id))
        }).pipe(
          Effect.catchTags({
            CryptoDestinationNotFound: missing(params.id),
            CryptoDestinationForbidden: destinationForbidden
          }),
          orServiceUnavailable
        )
      )
  })
)
