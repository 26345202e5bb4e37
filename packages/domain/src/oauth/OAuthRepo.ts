import { Context, type Effect, type Option } from "effect"
import type { PageRequest, PersistenceUnavailable, TeamId } from "../shared/model.ts"
import type { AuthorizationCode, OAuthApplication, OAuthApplicationStatus, OAuthToken } from "./OAuthEntities.ts"

/** What a team may change of its application. */
export type ApplicationFields = Pick<
  OAuthApplication,
  | "name"
  | "description"
  | "overview"
  | "developerName"
  | "logoUrl"
  | "website"
  | "installUrl"
  | "screenshots"
  | "redirectUris"
  | "scopes"
>

/** Storage of OAuth applications, authorization codes and tokens. */
export class OAuthRepo extends Context.Service<
  OAuthRepo,
  {
    readonly insertApplication: (app: OAuthApplication) => Effect.Effect<void, PersistenceUnavailable>
    readonly findApplicationByClientId: (
      clientId: string
    ) => Effect.Effect<Option.Option<OAuthApplication>, PersistenceUnavailable>
    readonly findApplication: (id: string) => Effect.Effect<Option.Option<OAuthApplication>, PersistenceUnavailable>
    /** Gives an application without a team to `teamId`; returns the owning team afterwards (unchanged if it had one). */
    readonly claimApplication: (id: string, teamId: TeamId) => Effect.Effect<TeamId | null, PersistenceUnavailable>
    /** The team's applications, newest first (`limit + 1` rows, for `toPage`). */
    readonly listApplications: (
      teamId: TeamId,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<OAuthApplication>, PersistenceUnavailable>
    /** Replaces what the team says about an application; none when there is no such application. */
    readonly updateApplication: (
      id: string,
      fields: ApplicationFields
    ) => Effect.Effect<Option.Option<OAuthApplication>, PersistenceUnavailable>
    /** Replaces a confidential application's secret hash; none when there is no such confidential application. */
    readonly replaceClientSecret: (
      id: string,
      clientSecretHash: string
    ) => Effect.Effect<Option.Option<OAuthApplication>, PersistenceUnavailable>
    /** Moves an application from `from` to `to`; none when it is not (or no longer) in `from`. */
    readonly transitionApplication: (
      id: string,
      from: OAuthApplicationStatus,
      to: OAuthApplicationStatus
    ) => Effect.Effect<Option.Option<OAuthApplication>, PersistenceUnavailable>
    readonly insertCode: (code: AuthorizationCode) => Effect.Effect<void, PersistenceUnavailable>
    readonly findCode: (codeHash: string) => Effect.Effect<Option.Option<AuthorizationCode>, PersistenceUnavailable>
    /** Marks an unused code used; false when it was already used (by this or a concurrent exchange). */
    readonly consumeCode: (codeHash: string, now: string) => Effect.Effect<boolean, PersistenceUnavailable>
    readonly insertToken: (token: OAuthToken) => Effect.Effect<void, PersistenceUnavailable>
    readonly findToken: (tokenHash: string) => Effect.Effect<Option.Option<OAuthToken>, PersistenceUnavailable>
    /** Marks a live refresh token exchanged; false when it was already exchanged or revoked. */
    readonly rotateRefreshToken: (id: string, now: string) => Effect.Effect<boolean, PersistenceUnavailable>
    readonly revokeToken: (id: string, now: string) => Effect.Effect<void, PersistenceUnavailable>
    /** Revokes every token of a grant that is not revoked yet. */
    readonly revokeGrant: (grantId: string, now: string) => Effect.Effect<void, PersistenceUnavailable>
    /** Deletes authorization codes and tokens that expired before the cutoff (ISO timestamp); returns how many. */
    readonly purgeExpiredBefore: (cutoff: string) => Effect.Effect<number, PersistenceUnavailable>
  }
>()("@svc/domain/OAuthRepo") {}
