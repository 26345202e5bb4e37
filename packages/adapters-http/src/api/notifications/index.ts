export * from "./NotificationsApi.ts"
