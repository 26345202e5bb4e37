import { Clock, Context, Effect, Layer, Option, Result } from "effect"
import {
  isoOfMillis,
  millisOfIso,
  newIdText,
  nowIso,
  type PageRequest,
  type PersistenceUnavailable,
  type TeamId,
  Transactor,
  type UserId
} from "../../shared/index.ts"
import { CustomersRepo } from "../customers/index.ts"
import { parseMajor } from "../money/model.ts"
import { Tags } from "../tags/index.ts"
import type { TagId } from "../tags/model.ts"
import {
  finishedTimes,
  inputsOnDates,
  secondsBetween,
  type TimerStatusView,
  type TrackerEntry,
  timerStatusView
} from "./TrackerEntry.ts"
import {
  TimerAlreadyRunning,
  TimerNotRunning,
  TrackerEntryNotFound,
  TrackerInvalid,
  TrackerProjectNotFound,
  TrackerReferenceNotFound
} from "./TrackerErrors.ts"
import type { TrackerProject, TrackerProjectDetails, TrackerProjectStatus } from "./TrackerProject.ts"
import type { TrackerEntryRange } from "./TrackerRepo.ts"
import { TrackerRepo } from "./TrackerRepo.ts"

/** What a client gives to create a project; `rate` is per hour in major units of `currency`. */
export interface TrackerProjectInput {
  readonly name: string
  readonly description?: string | null | undefined
  readonly status?: TrackerProjectStatus | undefined
  readonly billable?: boolean | undefined
  readonly rate?: number | null | undefined
  readonly currency?: string | null | undefined
  readonly estimate?: number | null | undefined
  readonly customerId?: string | null | undefined
  readonly tagIds?: ReadonlyArray<string> | undefined
}

/** A change to a project: each field given replaces the stored one (null clears an optional field). */
export type TrackerProjectPatch = Partial<TrackerProjectInput>

/** A finished entry: its start and its stop or duration in seconds. */
export interface TrackerEntryInput {
  readonly projectId: string
  readonly start: string
  readonly stop?: string | undefined
  readonly duration?: number | undefined
  readonly description?: string | null | undefined
  /** The twin's `dates`: one entry on each of these days (see `inputsOnDates`). */
  readonly dates?: ReadonlyArray<string> | undefined
}

/** A change to an entry: each field given replaces the stored one; a new start or stop recomputes the duration. */
export type TrackerEntryPatch = Partial<TrackerEntryInput>

/** A timer's project and what the work is. */
export interface TimerInput {
  readonly projectId: string
  readonly description?: string | null | undefined
}

type Refusal = TrackerInvalid | TrackerReferenceNotFound
type Failure = PersistenceUnavailable

const invalid = (field: string, message: string) => new TrackerInvalid({ field, message })

const given = <A>(value: A | undefined, current: A): A => (value === undefined ? current : value)

/**
 * The hourly rate in minor units after a change: a given rate is parsed in the project's (new) currency and must not
 * be negative; a kept rate cannot change currency, since its minor units would silently change meaning.
 */
const rateMinorOf = (
  current: TrackerProject | null,
  patch: TrackerProjectPatch,
  currency: string | null
): Result.Result<number | null, TrackerInvalid> => {
  if (patch.rate === undefined) {
    const kept = current?.rateMinor ?? null
    return kept !== null && currency !== current?.currency
      ? Result.fail(invalid("currency", "changing the currency of a project with a rate needs the rate too"))
      : Result.succeed(kept)
  }
  if (patch.rate === null) return Result.succeed(null)
  if (currency === null) return Result.fail(invalid("currency", "a rate needs its currency"))
  return parseMajor(patch.rate, currency, "rate").pipe(
    Result.mapError((e) => invalid(e.field, e.message)),
    Result.flatMap((minor) =>
      minor < 0 ? Result.fail(invalid("rate", "must not be negative")) : Result.succeed(minor)
    )
  )
}

/** Time tracking of a team: projects with their totals, entries, and one running timer per user. */
export class Tracker extends Context.Service<
  Tracker,
  {
    readonly createProject: (
      teamId: TeamId,
      input: TrackerProjectInput
    ) => Effect.Effect<TrackerProjectDetails, Refusal | Failure>
    readonly getProject: (
      teamId: TeamId,
      id: string
    ) => Effect.Effect<TrackerProjectDetails, TrackerProjectNotFound | Failure>
    readonly listProjects: (
      teamId: TeamId,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<TrackerProjectDetails>, Failure>
    readonly updateProject: (
      teamId: TeamId,
      id: string,
      patch: TrackerProjectPatch
    ) => Effect.Effect<TrackerProjectDetails, TrackerProjectNotFound | Refusal | Failure>
    /** Deletes a project and its entries. */
    readonly removeProject: (
      teamId: TeamId,
      id: string
    ) => Effect.Effect<TrackerProjectDetails, TrackerProjectNotFound | Failure>
    readonly listEntries: (
      teamId: TeamId,
      range: TrackerEntryRange,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<TrackerEntry>, Failure>
    readonly createEntry: (
      teamId: TeamId,
      userId: UserId,
      input: TrackerEntryInput
    ) => Effect.Effect<TrackerEntry, Refusal | Failure>
    /**
     * Creates all the entries (an input with `dates`, one a date) or, when one is refused, none; the refusal names the
     * field after `itemField` of the input's index (default `index.`).
     */
    readonly createEntries: (
      teamId: TeamId,
      userId: UserId,
      inputs: ReadonlyArray<TrackerEntryInput>,
      itemField?: (index: number) => string
    ) => Effect.Effect<ReadonlyArray<TrackerEntry>, Refusal | Failure>
    readonly updateEntry: (
      teamId: TeamId,
      id: string,
      patch: TrackerEntryPatch
    ) => Effect.Effect<TrackerEntry, TrackerEntryNotFound | Refusal | Failure>
    readonly getEntry: (teamId: TeamId, id: string) => Effect.Effect<TrackerEntry, TrackerEntryNotFound | Failure>
    readonly removeEntry: (teamId: TeamId, id: string) => Effect.Effect<TrackerEntry, TrackerEntryNotFound | Failure>
    /** Starts the user's timer now; refused while another of theirs runs. */
    readonly startTimer: (
      teamId: TeamId,
      userId: UserId,
      input: TimerInput
    ) => Effect.Effect<TrackerEntry, TimerAlreadyRunning | Refusal | Failure>
    /** Stops the user's running timer now (the `Clock`), with its duration in whole seconds. */
    readonly stopTimer: (teamId: TeamId, userId: UserId) => Effect.Effect<TrackerEntry, TimerNotRunning | Failure>
    readonly currentTimer: (teamId: TeamId, userId: UserId) => Effect.Effect<Option.Option<TrackerEntry>, Failure>
    /** The user's timer now (the `Clock`): its entry with its project's name and the seconds elapsed, or none. */
    readonly timerStatus: (teamId: TeamId, userId: UserId) => Effect.Effect<TimerStatusView, Failure>
  }
>()("@svc/domain/Tracker") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* TrackerRepo
    const customers = yield* CustomersRepo
    const tags = yield* Tags
    const transactor = yield* Transactor

    const getProject = Effect.fn("Tracker.getProject")(function* (teamId: TeamId, id: string) {
      const found = yield* repo.findProject(teamId, id)
      if (Option.isNone(found)) return yield* new TrackerProjectNotFound({ id })
      return found.value
    })

    const requireProject = Effect.fn("Tracker.requireProject")(function* (teamId: TeamId, id: string, field: string) {
      if (Option.isNone(yield* repo.findProject(teamId, id))) {
        return yield* new TrackerReferenceNotFound({ kind: "project", id, field })
      }
    })

    /** The stored fields of a project from its current state and a patch, references checked. */
    const projectFields = Effect.fn("Tracker.projectFields")(function* (
      teamId: TeamId,
      current: TrackerProject | null,
      patch: TrackerProjectPatch
    ) {
      const currency = given(patch.currency, current?.currency ?? null)
      const rateMinor = yield* Effect.fromResult(rateMinorOf(current, patch, currency))
      const customerId = given(patch.customerId, current?.customerId ?? null)
      if (customerId !== null && patch.customerId !== undefined) {
        if (Option.isNone(yield* customers.find(teamId, customerId))) {
          return yield* new TrackerReferenceNotFound({ kind: "customer", id: customerId, field: "customerId" })
        }
      }
      const tagIds = patch.tagIds === undefined ? (current?.tagIds ?? []) : [...new Set(patch.tagIds)]
      if (patch.tagIds !== undefined) {
        yield* tags
          .requireAll(teamId, tagIds as ReadonlyArray<TagId>, "tagIds")
          .pipe(
            Effect.catchTag("TagNotFound", (e) =>
              Effect.fail(new TrackerReferenceNotFound({ kind: "tag", id: e.tagId, field: e.field ?? "tagIds" }))
            )
          )
      }
      return {
        name: patch.name ?? current?.name ?? "",
        description: given(patch.description, current?.description ?? null),
        status: patch.status ?? current?.status ?? "in_progress",
        billable: patch.billable ?? current?.billable ?? false,
        rateMinor,
        currency,
        estimate: given(patch.estimate, current?.estimate ?? null),
        customerId,
        tagIds
      }
    })

    const createProject = Effect.fn("Tracker.createProject")(function* (teamId: TeamId, input: TrackerProjectInput) {
      const now = yield* nowIso
      const fields = yield* projectFields(teamId, null, input)
      const project: TrackerProject = {
        id: yield* newIdText,
        teamId,
        ...fields,
        createdAt: now,
        updatedAt: now
      }
      yield* repo.insertProject(project)
      return yield* getProject(teamId, project.id).pipe(Effect.orDie)
    })

    const updateProject = Effect.fn("Tracker.updateProject")(function* (
      teamId: TeamId,
      id: string,
      patch: TrackerProjectPatch
    ) {
      const current = yield* getProject(teamId, id)
      const next: TrackerProject = {
        ...current,
        ...(yield* projectFields(teamId, current, patch)),
        updatedAt: yield* nowIso
      }
      if (!(yield* repo.updateProject(next))) return yield* new TrackerProjectNotFound({ id })
      return yield* getProject(teamId, id)
    })

    const removeProject = Effect.fn("Tracker.removeProject")(function* (teamId: TeamId, id: string) {
      const current = yield* getProject(teamId, id)
      if (!(yield* repo.deleteProject(teamId, id))) return yield* new TrackerProjectNotFound({ id })
      return current
    })

    const newEntry = Effect.fn("Tracker.newEntry")(function* (
      teamId: TeamId,
      userId: UserId,
      input: TrackerEntryInput,
      prefix: string
    ) {
      const times = yield* Effect.fromResult(finishedTimes(input, prefix))
      yield* requireProject(teamId, input.projectId, `${prefix}projectId`)
      const now = yield* nowIso
      const entry: TrackerEntry = {
        id: yield* newIdText,
        teamId,
        projectId: input.projectId,
        userId,
        ...times,
        description: input.description ?? null,
        createdAt: now,
        updatedAt: now
      }
      return entry
    })

    const createEntries = Effect.fn("Tracker.createEntries")(function* (
      teamId: TeamId,
      userId: UserId,
      inputs: ReadonlyArray<TrackerEntryInput>,
      itemField: (index: number) => string = (i) => `${i}.`
    ) {
      return yield* transactor.withTransaction(
        Effect.gen(function* () {
          const expanded = inputs.flatMap((input, i) => inputsOnDates(input).map((one) => [one, i] as const))
          const entries = yield* Effect.forEach(expanded, ([input, i]) => newEntry(teamId, userId, input, itemField(i)))
          yield* repo.insertEntries(entries)
          return entries
        })
      )
    })

    const createEntry = Effect.fn("Tracker.createEntry")(function* (
      teamId: TeamId,
      userId: UserId,
      input: TrackerEntryInput
    ) {
      const entry = yield* newEntry(teamId, userId, input, "")
      yield* repo.insertEntries([entry])
      return entry
    })

    const getEntry = Effect.fn("Tracker.getEntry")(function* (teamId: TeamId, id: string) {
      const found = yield* repo.findEntry(teamId, id)
      if (Option.isNone(found)) return yield* new TrackerEntryNotFound({ id })
      return found.value
    })

    const updateEntry = Effect.fn("Tracker.updateEntry")(function* (
      teamId: TeamId,
      id: string,
      patch: TrackerEntryPatch
    ) {
      const current = yield* getEntry(teamId, id)
      if (patch.projectId !== undefined && patch.projectId !== current.projectId) {
        yield* requireProject(teamId, patch.projectId, "projectId")
      }
      const start = patch.start ?? current.start
      const stop = patch.stop ?? (patch.duration === undefined ? current.stop : null)
      const times =
        stop === null && patch.duration === undefined
          ? { start: isoOfMillis(millisOfIso(start)), stop: null, durationSeconds: null }
          : yield* Effect.fromResult(
              finishedTimes({
                start,
                ...(stop === null ? {} : { stop }),
                ...(patch.duration === undefined ? {} : { duration: patch.duration })
              })
            )
      const next: TrackerEntry = {
        ...current,
        projectId: patch.projectId ?? current.projectId,
        ...times,
        description: given(patch.description, current.description),
        updatedAt: yield* nowIso
      }
      if (!(yield* repo.updateEntry(next, false))) return yield* new TrackerEntryNotFound({ id })
      return next
    })

    const removeEntry = Effect.fn("Tracker.removeEntry")(function* (teamId: TeamId, id: string) {
      const current = yield* getEntry(teamId, id)
      if (!(yield* repo.deleteEntry(teamId, id))) return yield* new TrackerEntryNotFound({ id })
      return current
    })

    const startTimer = Effect.fn("Tracker.startTimer")(function* (teamId: TeamId, userId: UserId, input: TimerInput) {
      yield* requireProject(teamId, input.projectId, "projectId")
      const now = yield* nowIso
      const entry: TrackerEntry = {
        id: yield* newIdText,
        teamId,
        projectId: input.projectId,
        userId,
        start: now,
        stop: null,
        durationSeconds: null,
        description: input.description ?? null,
        createdAt: now,
        updatedAt: now
      }
      if (!(yield* repo.startTimer(entry))) {
        const running = yield* repo.runningEntry(teamId, userId)
        return yield* new TimerAlreadyRunning({ entryId: Option.getOrNull(Option.map(running, (e) => e.id)) })
      }
      return entry
    })

    const stopTimer = Effect.fn("Tracker.stopTimer")(function* (teamId: TeamId, userId: UserId) {
      const running = yield* repo.runningEntry(teamId, userId)
      if (Option.isNone(running)) return yield* new TimerNotRunning()
      const now = isoOfMillis(yield* Clock.currentTimeMillis)
      const stop = now < running.value.start ? running.value.start : now
      const next: TrackerEntry = {
        ...running.value,
        stop,
        durationSeconds: secondsBetween(running.value.start, stop),
        updatedAt: now
      }
      if (!(yield* repo.updateEntry(next, true))) return yield* new TimerNotRunning()
      return next
    })

    return Tracker.of({
      createProject,
      getProject,
      listProjects: Effect.fn("Tracker.listProjects")((teamId: TeamId, page: PageRequest) =>
        repo.listProjects(teamId, page)
      ),
      updateProject,
      removeProject,
      listEntries: Effect.fn("Tracker.listEntries")((teamId: TeamId, range: TrackerEntryRange, page: PageRequest) =>
        repo.listEntries(teamId, range, page)
      ),
      createEntry,
      createEntries,
      updateEntry,
      getEntry,
      removeEntry,
      startTimer,
      stopTimer,
      currentTimer: Effect.fn("Tracker.currentTimer")((teamId: TeamId, userId: UserId) =>
        repo.runningEntry(teamId, userId)
      ),
      timerStatus: Effect.fn("Tracker.timerStatus")(function* (teamId: TeamId, userId: UserId) {
        const running = yield* repo.runningEntry(teamId, userId)
        const now = isoOfMillis(yield* Clock.currentTimeMillis)
        if (Option.isNone(running)) return timerStatusView(null, now)
        const project = yield* repo.findProject(teamId, running.value.projectId)
        // A project's deletion removes its entries, so a running entry without its project has just gone.
        if (Option.isNone(project)) return timerStatusView(null, now)
        return timerStatusView({ entry: running.value, projectName: project.value.name }, now)
      })
    })
  })
  static readonly layer = Layer.effect(Tracker, Tracker.make)
}
