import {
  type ApplicationWithSecret,
  OAuthApplications,
  type OAuthApplicationTransitionInvalid,
  oauthApplicationView,
  Teams,
  toPage
} from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { conflict, forbidden, notFound } from "../../api/shared/index.ts"
import { currentTeamAsAdmin as adminTeamOf, listPaging, orServiceUnavailable } from "../shared/index.ts"

const withSecret = ({ application, clientSecret }: ApplicationWithSecret) => ({
  ...oauthApplicationView(application),
  secret: clientSecret
})

const invalidTransition = (e: OAuthApplicationTransitionInvalid) =>
  Effect.fail(
    conflict("invalid_status_transition", `oauth application ${e.id} cannot move from ${e.status} to ${e.requested}`)
  )

export const OAuthApplicationsHttp = HttpApiBuilder.group(Api, "oauthApplications", (handlers) =>
  Effect.gen(function* () {
    const { pageOf, signedPage } = yield* listPaging
    const applications = yield* OAuthApplications
    const currentTeamAsAdmin = adminTeamOf(yield* Teams, "manage OAuth applications")
    const missing = (id: string) => () => Effect.fail(notFound(`no oauth application ${id}`))

    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          const created = yield* applications.create(team.id, {
            description: null,
            overview: null,
            developerName: null,
            logoUrl: null,
            website: null,
            installUrl: null,
            screenshots: [],
            ...payload
          })
          return withSecret(created)
        }).pipe(orServiceUnavailable)
      )
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          const scope = `oauth-applications:${team.id}`
          const page = yield* pageOf(scope, query)
          return yield* signedPage(scope, toPage(page, yield* applications.list(team.id, page), oauthApplicationView))
        }).pipe(orServiceUnavailable)
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          return oauthApplicationView(yield* applications.get(team.id, params.id))
        }).pipe(Effect.catchTag("OAuthApplicationNotFound", missing(params.id)), orServiceUnavailable)
      )
      .handle("update", ({ params, payload }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          return oauthApplicationView(yield* applications.update(team.id, params.id, payload))
        }).pipe(Effect.catchTag("OAuthApplicationNotFound", missing(params.id)), orServiceUnavailable)
      )
      .handle("rotateSecret", ({ params }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          return withSecret(yield* applications.rotateSecret(team.id, params.id))
        }).pipe(
          Effect.catchTags({
            OAuthApplicationNotFound: missing(params.id),
            OAuthApplicationPublic: () =>
              Effect.fail(
                conflict(
                  "oauth_application_public",
                  "a public client has no client secret (it authenticates with PKCE)"
                )
              )
          }),
          orServiceUnavailable
        )
      )
      .handle("setStatus", ({ params, payload }) =>
        Effect.gen(function* () {
          const { team, role } = yield* currentTeamAsAdmin
          if (role !== "owner") {
            return yield* forbidden("forbidden", "only the team owner changes an application's review status")
          }
          return oauthApplicationView(yield* applications.setStatus(team.id, params.id, payload.status))
        }).pipe(
          Effect.catchTags({
            OAuthApplicationNotFound: missing(params.id),
            OAuthApplicationTransitionInvalid: invalidTransition
          }),
          orServiceUnavailable
        )
      )
  })
)
