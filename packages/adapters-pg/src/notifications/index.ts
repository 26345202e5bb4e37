import { NotificationsRepoPg } from "./NotificationsRepoPg.ts"

export * from "./NotificationsRepoPg.ts"

/** The notifications context's ports on Postgres. */
export const NotificationsPortsPg = NotificationsRepoPg
