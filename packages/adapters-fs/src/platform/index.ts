export * from "./MailerFs.ts"
