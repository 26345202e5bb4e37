import { Context, Effect, Layer, Option, Schema } from "effect"
import {
  generateSecret,
  hashSecret,
  newIdText,
  nowIso,
  type PageRequest,
  type PersistenceUnavailable,
  type TeamId
} from "../shared/index.ts"
import { type ApplicationDetails, mayTransition } from "./ApplicationDetails.ts"
import { CLIENT_ID_PREFIX, CLIENT_SECRET_PREFIX } from "./OAuthCredentials.ts"
import { type OAuthApplication, OAuthApplicationStatus } from "./OAuthEntities.ts"
import { type ApplicationFields, OAuthRepo } from "./OAuthRepo.ts"

/** No application with this id belongs to the team. */
export class OAuthApplicationNotFound extends Schema.TaggedError<OAuthApplicationNotFound>()(
  "OAuthApplicationNotFound",
  { id: Schema.String }
) {}

/** The review path does not lead from the application's `status` to the `requested` one. */
export class OAuthApplicationTransitionInvalid extends Schema.TaggedError<OAuthApplicationTransitionInvalid>()(
  "OAuthApplicationTransitionInvalid",
  { id: Schema.String, status: OAuthApplicationStatus, requested: OAuthApplicationStatus }
) {}

/** The application is a public client (it registered without a secret), so it has no secret to rotate. */
export class OAuthApplicationPublic extends Schema.TaggedError<OAuthApplicationPublic>()("OAuthApplicationPublic", {
  id: Schema.String
}) {}

/** An application with its client secret, shown this once. */
export interface ApplicationWithSecret {
  readonly application: OAuthApplication
  readonly clientSecret: string
}

/**
 * A team's own OAuth applications: created confidential (a `mid_client_secret_` secret, stored hashed, shown once),
 * described, given redirect URIs and scopes, their secret rotated, and moved along the review path.
 */
export class OAuthApplications extends Context.Service<
  OAuthApplications,
  {
    readonly create: (
      teamId: TeamId,
      details: ApplicationDetails
    ) => Effect.Effect<ApplicationWithSecret, PersistenceUnavailable>
    /** The team's applications, newest first (`limit + 1` rows, for `toPage`). */
    readonly list: (
      teamId: TeamId,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<OAuthApplication>, PersistenceUnavailable>
    readonly get: (
      teamId: TeamId,
      id: string
    ) => Effect.Effect<OAuthApplication, OAuthApplicationNotFound | PersistenceUnavailable>
    /** Replaces the given details and keeps the others; tokens already issued keep their scopes. */
    readonly update: (
      teamId: TeamId,
      id: string,
      details: Partial<ApplicationDetails>
    ) => Effect.Effect<OAuthApplication, OAuthApplicationNotFound | PersistenceUnavailable>
    /** Issues a new client secret; the previous one stops working at once. */
    readonly rotateSecret: (
      teamId: TeamId,
      id: string
    ) => Effect.Effect<
      ApplicationWithSecret,
      OAuthApplicationNotFound | OAuthApplicationPublic | PersistenceUnavailable
    >
    /** Moves the application along its review path; asking for the status it has changes nothing. */
    readonly setStatus: (
      teamId: TeamId,
      id: string,
      status: OAuthApplicationStatus
    ) => Effect.Effect<
      OAuthApplication,
      OAuthApplicationNotFound | OAuthApplicationTransitionInvalid | PersistenceUnavailable
    >
  }
>()("@svc/domain/OAuthApplications") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* OAuthRepo

    const get = Effect.fn("OAuthApplications.get")(function* (teamId: TeamId, id: string) {
      const found = yield* repo.findApplication(id)
      if (Option.isNone(found) || found.value.teamId !== teamId) return yield* new OAuthApplicationNotFound({ id })
      return found.value
    })

    /** The application after a write that can only miss when it vanished (applications are never deleted). */
    const written = (id: string) =>
      Effect.flatMap(
        Option.match({
          onSome: (app: OAuthApplication) => Effect.succeed(app),
          onNone: () => Effect.fail(new OAuthApplicationNotFound({ id }))
        })
      )

    const create = Effect.fn("OAuthApplications.create")(function* (teamId: TeamId, details: ApplicationDetails) {
      const clientSecret = yield* generateSecret(CLIENT_SECRET_PREFIX)
      const application: OAuthApplication = {
        id: yield* newIdText,
        clientId: yield* generateSecret(CLIENT_ID_PREFIX),
        clientSecretHash: yield* hashSecret(clientSecret),
        ...details,
        redirectUris: [...new Set(details.redirectUris)],
        scopes: [...new Set(details.scopes)],
        grantTypes: ["authorization_code", "refresh_token"],
        responseTypes: ["code"],
        tokenEndpointAuthMethod: "client_secret_basic",
        status: "draft",
        teamId,
        createdAt: yield* nowIso
      }
      yield* repo.insertApplication(application)
      return { application, clientSecret }
    })

    const update = Effect.fn("OAuthApplications.update")(function* (
      teamId: TeamId,
      id: string,
      details: Partial<ApplicationDetails>
    ) {
      const app = yield* get(teamId, id)
      const merged: ApplicationFields = {
        name: details.name ?? app.name,
        description: details.description === undefined ? app.description : details.description,
        overview: details.overview === undefined ? app.overview : details.overview,
        developerName: details.developerName === undefined ? app.developerName : details.developerName,
        logoUrl: details.logoUrl === undefined ? app.logoUrl : details.logoUrl,
        website: details.website === undefined ? app.website : details.website,
        installUrl: details.installUrl === undefined ? app.installUrl : details.installUrl,
        screenshots: details.screenshots ?? app.screenshots,
        redirectUris: [...new Set(details.redirectUris ?? app.redirectUris)],
        scopes: details.scopes === undefined ? app.scopes : [...new Set(details.scopes)]
      }
      return yield* repo.updateApplication(id, merged).pipe(written(id))
    })

    const rotateSecret = Effect.fn("OAuthApplications.rotateSecret")(function* (teamId: TeamId, id: string) {
      const app = yield* get(teamId, id)
      if (app.clientSecretHash === null) return yield* new OAuthApplicationPublic({ id })
      const clientSecret = yield* generateSecret(CLIENT_SECRET_PREFIX)
      const application = yield* repo.replaceClientSecret(id, yield* hashSecret(clientSecret)).pipe(written(id))
      return { application, clientSecret }
    })

    const setStatus = Effect.fn("OAuthApplications.setStatus")(function* (
      teamId: TeamId,
      id: string,
      requested: OAuthApplicationStatus
    ) {
      const app = yield* get(teamId, id)
      if (app.status === requested) return app
      if (!mayTransition(app.status, requested)) {
        return yield* new OAuthApplicationTransitionInvalid({ id, status: app.status, requested })
      }
      const moved = yield* repo.transitionApplication(id, app.status, requested)
      if (Option.isSome(moved)) return moved.value
      const now = yield* get(teamId, id)
      if (now.status === requested) return now
      return yield* new OAuthApplicationTransitionInvalid({ id, status: now.status, requested })
    })

    return OAuthApplications.of({
      create,
      list: Effect.fn("OAuthApplications.list")(function* (teamId, page) {
        return yield* repo.listApplications(teamId, page)
      }),
      get,
      update,
      rotateSecret,
      setStatus
    })
  })

  static readonly layer = Layer.effect(OAuthApplications, OAuthApplications.make)
}
