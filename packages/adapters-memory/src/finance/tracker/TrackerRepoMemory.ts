import {
  CustomersRepo,
  customerRef,
  isAfter,
  newestFirst,
  TagsRepo,
  type TeamId,
  type TrackerEntry,
  type TrackerProject,
  type TrackerProjectDetails,
  TrackerRepo
} from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryStore } from "../../shared/index.ts"

type Table<A> = ReadonlyMap<string, A>

const ofTeam =
  <A extends { readonly teamId: TeamId }>(teamId: TeamId, id: string) =>
  (all: Table<A>) =>
    Option.filter(Option.fromNullishOr(all.get(id)), (row) => row.teamId === teamId)

const replaced =
  <A extends { readonly teamId: TeamId; readonly id: string }>(row: A, when: (old: A) => boolean) =>
  (all: Table<A>) => {
    const old = ofTeam<A>(row.teamId, row.id)(all)
    return Option.isNone(old) || !when(old.value)
      ? ([false, all] as const)
      : ([true, new Map(all).set(row.id, row)] as const)
  }

/** TrackerRepo over the in-memory store; customers and tags are read through their ports, as Postgres joins them. */
export const TrackerRepoMemory = Layer.effect(
  TrackerRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const customers = yield* CustomersRepo
    const tags = yield* TagsRepo
    const projects = yield* store.table<Table<TrackerProject>>(new Map())
    const entries = yield* store.table<Table<TrackerEntry>>(new Map())

    const details = (project: TrackerProject) =>
      Effect.gen(function* () {
        const customer =
          project.customerId === null ? Option.none() : yield* customers.find(project.teamId, project.customerId)
        const teamTags = yield* tags.list(project.teamId)
        const totalDurationSeconds = [...(yield* Ref.get(entries)).values()]
          .filter((e) => e.teamId === project.teamId && e.projectId === project.id)
          .reduce((sum, e) => sum + (e.durationSeconds ?? 0), 0)
        const shown: TrackerProjectDetails = {
          ...project,
          customerId: Option.isSome(customer) ? project.customerId : null,
          tagIds: project.tagIds.filter((id) => teamTags.some((t) => t.id === id)),
          customer: Option.getOrNull(Option.map(customer, customerRef)),
          tags: teamTags.filter((t) => project.tagIds.includes(t.id)).map((t) => ({ id: t.id, name: t.name })),
          totalDurationSeconds
        }
        return shown
      })

    const remove = <A extends { readonly teamId: TeamId }>(table: Ref.Ref<Table<A>>, teamId: TeamId, id: string) =>
      Ref.modify(table, (all) => {
        if (Option.isNone(ofTeam<A>(teamId, id)(all))) return [false, all] as const
        const next = new Map(all)
        next.delete(id)
        return [true, next] as const
      })

    const isRunning = (teamId: TeamId, userId: string) => (e: TrackerEntry) =>
      e.teamId === teamId && e.userId === userId && e.stop === null

    return TrackerRepo.of({
      insertProject: (project) =>
        store.atomically(Ref.update(projects, (all) => new Map(all).set(project.id, project))),
      findProject: (teamId, id) =>
        Ref.get(projects).pipe(
          Effect.flatMap((all) =>
            Option.match(ofTeam<TrackerProject>(teamId, id)(all), {
              onNone: () => Effect.succeedNone,
              onSome: (p) => Effect.map(details(p), Option.some)
            })
          )
        ),
      listProjects: (teamId, page) =>
        Ref.get(projects).pipe(
          Effect.flatMap((all) =>
            Effect.forEach(
              [...all.values()]
                .filter((p) => p.teamId === teamId && isAfter(p, page.after))
                .toSorted(newestFirst)
                .slice(0, page.limit + 1),
              details
            )
          )
        ),
      updateProject: (project) =>
        store.atomically(
          Ref.modify(
            projects,
            replaced(project, () => true)
          )
        ),
      deleteProject: (teamId, id) =>
        store.atomically(
          Effect.gen(function* () {
            if (!(yield* remove(projects, teamId, id))) return false
            yield* Ref.update(
              entries,
              (all) => new Map([...all].filter(([, e]) => !(e.teamId === teamId && e.projectId === id)))
            )
            return true
          })
        ),
      insertEntries: (added) =>
        store.atomically(
          Ref.update(entries, (all) => {
            const next = new Map(all)
            for (const e of added) next.set(e.id, e)
            return next
          })
        ),
      startTimer: (entry) =>
        store.atomically(
          Ref.modify(entries, (all) =>
            [...all.values()].some(isRunning(entry.teamId, entry.userId))
              ? ([false, all] as const)
              : ([true, new Map(all).set(entry.id, entry)] as const)
          )
        ),
      runningEntry: (teamId, userId) =>
        Ref.get(entries).pipe(
          Effect.map((all) => Option.fromNullishOr([...all.values()].find(isRunning(teamId, userId))))
        ),
      findEntry: (teamId, id) => Ref.get(entries).pipe(Effect.map(ofTeam<TrackerEntry>(teamId, id))),
      listEntries: (teamId, range, page) =>
        Ref.get(entries).pipe(
          Effect.map((all) =>
            [...all.values()]
              .filter(
                (e) =>
                  e.teamId === teamId &&
                  e.start >= range.startFrom &&
                  e.start < range.startBefore &&
                  (range.projectId === null || e.projectId === range.projectId) &&
                  isAfter({ createdAt: e.start, id: e.id }, page.after)
              )
              .toSorted((a, b) => newestFirst({ createdAt: a.start, id: a.id }, { createdAt: b.start, id: b.id }))
              .slice(0, page.limit + 1)
          )
        ),
      updateEntry: (entry, runningOnly) =>
        store.atomically(
          Ref.modify(
            entries,
            replaced(entry, (old) => !runningOnly || old.stop === null)
          )
        ),
      deleteEntry: (teamId, id) => store.atomically(remove(entries, teamId, id))
    })
  })
)
