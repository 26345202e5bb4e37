import { Context, type Effect, type Option, type Redacted, Schema } from "effect"

/**
 * Why the chat platform refused or could not take a call: the bot's token no longer works (`invalid_auth`,
 * `token_revoked`: the integration is lost), the channel is gone, the platform asks to slow down (`retryAfterMs`), it
 * is unreachable or failing, or it refused the call for another reason (`code` is the platform's word).
 */
export class ChatMessagingFailed extends Schema.TaggedError<ChatMessagingFailed>()("ChatMessagingFailed", {
  reason: Schema.Literals(["revoked", "channel_not_found", "rate_limited", "unavailable", "refused"]),
  code: Schema.String,
  retryAfterMs: Schema.NullOr(Schema.Int)
}) {}

/** Whether a later attempt of the same call may succeed. */
export const isTransientChatError = (error: ChatMessagingFailed): boolean =>
  error.reason === "rate_limited" || error.reason === "unavailable"

/** A message's fallback text and its layout blocks (the platform's block kit, as JSON). */
export interface ChatMessageContent {
  readonly text: string
  readonly blocks: ReadonlyArray<Readonly<Record<string, unknown>>>
}

/** The machine-readable tag a posted message carries, by which it is found again in the channel's history. */
export interface ChatMessageTag {
  readonly eventType: string
  readonly key: string
  readonly value: string
}

/** Where a posted message is: its channel and the platform's timestamp id. */
export interface PostedChatMessage {
  readonly channel: string
  readonly ts: string
}

/** The chat platform's Web API as the service uses it, with a bot token of one workspace. */
export class ChatMessaging extends Context.Service<
  ChatMessaging,
  {
    /** Posts a message to a channel, tagged with `tag`. */
    readonly post: (
      token: Redacted.Redacted<string>,
      channel: string,
      content: ChatMessageContent,
      tag: ChatMessageTag
    ) => Effect.Effect<PostedChatMessage, ChatMessagingFailed>
    /** Replaces a posted message's text and blocks. */
    readonly update: (
      token: Redacted.Redacted<string>,
      message: PostedChatMessage,
      content: ChatMessageContent
    ) => Effect.Effect<void, ChatMessagingFailed>
    /** The newest message of the channel's recent history carrying `tag`; none when there is none. */
    readonly findTagged: (
      token: Redacted.Redacted<string>,
      channel: string,
      tag: ChatMessageTag
    ) => Effect.Effect<Option.Option<PostedChatMessage>, ChatMessagingFailed>
    /** The e-mail address of a person of the workspace, as the platform verified it; none for bots and unknown users. */
    readonly userEmail: (
      token: Redacted.Redacted<string>,
      userId: string
    ) => Effect.Effect<Option.Option<string>, ChatMessagingFailed>
    /** Answers an interaction privately to the person who pressed (an ephemeral message through its response URL). */
    readonly respond: (responseUrl: string, text: string) => Effect.Effect<void, ChatMessagingFailed>
  }
>()("@svc/domain/ChatMessaging") {}
