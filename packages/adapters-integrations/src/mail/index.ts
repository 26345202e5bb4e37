export * from "./MailProviderHttp.ts"
export * from "./MailStateJwe.ts"
export * from "./SmtpMailer.ts"
