export * from "./model.ts"
export * from "./NotificationJobs.ts"
export * from "./Notifications.ts"
