import { ChatIntegrationsRepoPg } from "./ChatIntegrationsRepoPg.ts"

export * from "./ChatIntegrationsRepoPg.ts"

/** The integrations context's storage ports on Postgres. */
export const IntegrationsPortsPg = ChatIntegrationsRepoPg
