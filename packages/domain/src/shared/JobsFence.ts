import { Context, Effect } from "effect"
import type { PersistenceUnavailable } from "./Persistence.ts"

/**
 * The background jobs' fence (ADR 0050): asked inside a transaction about to do what two leaders of the jobs must not
 * both do, whether this process still leads them. Once it answers true, a process that becomes the leader later
 * starts its jobs only after that transaction ended, so the new leader sees what it wrote; false once another process
 * leads. A process alone on its database (the default) always leads.
 */
export const JobsFence = Context.Reference<{ readonly stillLeading: Effect.Effect<boolean, PersistenceUnavailable> }>(
  "@svc/domain/JobsFence",
  { defaultValue: () => ({ stillLeading: Effect.succeed(true) }) }
)
