import { Layer } from "effect"
import { ChatIntegrationsRepoPg } from "./ChatIntegrationsRepoPg.ts"
import { ChatMessagesRepoPg } from "./ChatMessagesRepoPg.ts"
import { ChatUserLinksRepoPg } from "./ChatUserLinksRepoPg.ts"
import { InstallNoncesRepoPg } from "./InstallNoncesRepoPg.ts"
import { MailInboxAccountsRepoPg } from "./MailInboxAccountsRepoPg.ts"

export * from "./ChatIntegrationsRepoPg.ts"
export * from "./ChatMessagesRepoPg.ts"
export * from "./ChatUserLinksRepoPg.ts"
export * from "./InstallNoncesRepoPg.ts"
export * from "./MailInboxAccountsRepoPg.ts"

/** The integrations context's storage ports on Postgres (the platforms and providers are not storage). */
export const IntegrationsPortsPg = Layer.mergeAll(
  ChatIntegrationsRepoPg,
  ChatMessagesRepoPg,
  ChatUserLinksRepoPg,
  InstallNoncesRepoPg,
  MailInboxAccountsRepoPg
)
