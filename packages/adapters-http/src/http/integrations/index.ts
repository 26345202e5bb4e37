export * from "./ChatAppHttp.ts"
export * from "./DashboardUrl.ts"
export * from "./MailAccountsHttp.ts"
export * from "./MailCallbackHttp.ts"
