import { Context, type Effect, type Option, type Redacted, Schema } from "effect"
import type { PersistenceUnavailable, TeamId } from "../shared/model.ts"
import type { ChatIntegration } from "./ChatIntegration.ts"

/** Storage of chat integrations: at most one per team, found by team or by the chat workspace it was installed in. */
export class ChatIntegrationsRepo extends Context.Service<
  ChatIntegrationsRepo,
  {
    readonly forTeam: (teamId: TeamId) => Effect.Effect<Option.Option<ChatIntegration>, PersistenceUnavailable>
    readonly forWorkspace: (
      workspaceId: string
    ) => Effect.Effect<Option.Option<ChatIntegration>, PersistenceUnavailable>
    /** Stores the integration in place of the team's previous one, if any. */
    readonly save: (integration: ChatIntegration) => Effect.Effect<void, PersistenceUnavailable>
    /** Removes the team's integration and answers it; none when the team had none. */
    readonly remove: (teamId: TeamId) => Effect.Effect<Option.Option<ChatIntegration>, PersistenceUnavailable>
  }
>()("@svc/domain/ChatIntegrationsRepo") {}

/** What the chat platform grants for an authorization code: the bot's token and where the app was installed. */
export interface ChatInstallation {
  readonly accessToken: Redacted.Redacted<string>
  readonly botUserId: string
  readonly workspaceId: string
  readonly workspaceName: string
  readonly channelId: string
  readonly channelName: string
  readonly scopes: ReadonlyArray<string>
}

/** The chat platform answered and refused: `error` is the platform's own code (`invalid_code`, `invalid_auth`, ...). */
export class ChatPlatformRefused extends Schema.TaggedError<ChatPlatformRefused>()("ChatPlatformRefused", {
  operation: Schema.String,
  error: Schema.String
}) {}

/** The chat platform could not be reached or did not answer as its API does; the message never holds a secret. */
export class ChatPlatformUnavailable extends Schema.TaggedError<ChatPlatformUnavailable>()("ChatPlatformUnavailable", {
  operation: Schema.String,
  message: Schema.String
}) {}

/** The chat platform's install side: exchanging an OAuth code for the bot's installation, and revoking its token. */
export class ChatPlatform extends Context.Service<
  ChatPlatform,
  {
    readonly exchangeCode: (request: {
      readonly code: string
      readonly redirectUri: string
    }) => Effect.Effect<ChatInstallation, ChatPlatformRefused | ChatPlatformUnavailable>
    /** Revokes the token at the platform, so that it can no longer act for the team. */
    readonly revokeToken: (
      token: Redacted.Redacted<string>
    ) => Effect.Effect<void, ChatPlatformRefused | ChatPlatformUnavailable>
  }
>()("@svc/domain/ChatPlatform") {}
