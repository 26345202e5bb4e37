import { Context, type Effect, type Option } from "effect"
import type { PageRequest, PersistenceUnavailable, TeamId, UserId } from "../../shared/model.ts"
import type { TrackerEntry } from "./TrackerEntry.ts"
import type { TrackerProject, TrackerProjectDetails } from "./TrackerProject.ts"

/** Which entries a list shows: those starting in [`startFrom`, `startBefore`), optionally of one project. */
export interface TrackerEntryRange {
  readonly startFrom: string
  readonly startBefore: string
  readonly projectId: string | null
}

type Effect_<A> = Effect.Effect<A, PersistenceUnavailable>

/** Storage of tracker projects and entries, per team. Deleting a project deletes its entries. */
export class TrackerRepo extends Context.Service<
  TrackerRepo,
  {
    readonly insertProject: (project: TrackerProject) => Effect_<void>
    readonly findProject: (teamId: TeamId, id: string) => Effect_<Option.Option<TrackerProjectDetails>>
    /** The team's projects newest first, up to `page.limit + 1`. */
    readonly listProjects: (teamId: TeamId, page: PageRequest) => Effect_<ReadonlyArray<TrackerProjectDetails>>
    /** Replaces a stored project and its tags; false when the team has none with its id. */
    readonly updateProject: (project: TrackerProject) => Effect_<boolean>
    readonly deleteProject: (teamId: TeamId, id: string) => Effect_<boolean>
    /** Stores finished entries. */
    readonly insertEntries: (entries: ReadonlyArray<TrackerEntry>) => Effect_<void>
    /** Stores a running entry unless its user already has one running (false then): of concurrent starts, one wins. */
    readonly startTimer: (entry: TrackerEntry) => Effect_<boolean>
    readonly runningEntry: (teamId: TeamId, userId: UserId) => Effect_<Option.Option<TrackerEntry>>
    readonly findEntry: (teamId: TeamId, id: string) => Effect_<Option.Option<TrackerEntry>>
    /** The entries in the range, latest start first (then id), up to `page.limit + 1`; positions are (start, id). */
    readonly listEntries: (
      teamId: TeamId,
      range: TrackerEntryRange,
      page: PageRequest
    ) => Effect_<ReadonlyArray<TrackerEntry>>
    /**
     * Replaces a stored entry; false when the team has none with its id, or when `runningOnly` and it is no longer
     * running (so of concurrent stops one wins).
     */
    readonly updateEntry: (entry: TrackerEntry, runningOnly: boolean) => Effect_<boolean>
    readonly deleteEntry: (teamId: TeamId, id: string) => Effect_<boolean>
  }
>()("@svc/domain/TrackerRepo") {}
