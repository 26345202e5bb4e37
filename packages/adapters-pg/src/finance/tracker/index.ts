import { TrackerRepoPg } from "./TrackerRepoPg.ts"

export * from "./TrackerRepoPg.ts"

/** The tracker context's ports on Postgres. */
export const TrackerPortsPg = TrackerRepoPg
