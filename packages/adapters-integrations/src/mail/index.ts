export * from "./MailProviderHttp.ts"
export * from "./MailStateJwe.ts"
