export * from "./NotificationsHttp.ts"
