export * from "./MailAccountsApi.ts"
export * from "./MailCallbackApi.ts"
