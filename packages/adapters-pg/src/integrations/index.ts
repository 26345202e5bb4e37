import { Layer } from "effect"
import { ChatIntegrationsRepoPg } from "./ChatIntegrationsRepoPg.ts"
import { ChatMessagesRepoPg } from "./ChatMessagesRepoPg.ts"
import { ChatUserLinksRepoPg } from "./ChatUserLinksRepoPg.ts"

export * from "./ChatIntegrationsRepoPg.ts"
export * from "./ChatMessagesRepoPg.ts"
export * from "./ChatUserLinksRepoPg.ts"

/** The integrations context's storage ports on Postgres. */
export const IntegrationsPortsPg = Layer.mergeAll(ChatIntegrationsRepoPg, ChatMessagesRepoPg, ChatUserLinksRepoPg)
