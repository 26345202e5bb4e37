export * from "./ChatAppApi.ts"
export * from "./MailAccountsApi.ts"
export * from "./MailCallbackApi.ts"
