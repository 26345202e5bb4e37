import { assert, layer } from "@effect/vitest"
import { PortsMemory, PublishedEvents } from "@svc/adapters-memory"
import { type DomainEvent, Transfers } from "@svc/domain"
import { Effect, Layer, Ref } from "effect"
import { send, transfersDomainOver, twoTeams } from "./TransferDomainSetup.ts"

/** The transfer events each team got since `from`, as `type:direction`, in order. */
const eventsOf = (from: number, teamId: string) =>
  Effect.map(Effect.flatMap(PublishedEvents, Ref.get), (events: ReadonlyArray<DomainEvent>) =>
    events
      .slice(from)
      .filter((e) => e.teamId === teamId && e.type.startsWith("transfer."))
      .map((e) => `${e.type}:${(e.data as { direction: string }).direction}`)
  )

const published = Effect.map(Effect.flatMap(PublishedEvents, Ref.get), (events) => events.length)

layer(transfersDomainOver(PortsMemory).pipe(Layer.provideMerge(PortsMemory)))(
  "transfer events (in-memory outbox)",
  (it) => {
    it.effect("each team hears what concerns it, as it sees the transfer; only the sender sees the decision", () =>
      Effect.gen(function* () {
        const { sender, recipient, address } = yield* twoTeams(100_000, { approvalThreshold: 5_000 })
        const service = yield* Transfers

        let from = yield* published
        const accepted = yield* send(sender.agent, { to: { address } })
        yield* service.accept(recipient.agent, accepted.id)
        assert.deepStrictEqual(yield* eventsOf(from, sender.team.id), [
          "transfer.created:outgoing",
          "transfer.completed:outgoing"
        ])
        assert.deepStrictEqual(yield* eventsOf(from, recipient.team.id), [
          "transfer.created:incoming",
          "transfer.completed:incoming"
        ])
        const incoming = (yield* Effect.flatMap(PublishedEvents, Ref.get)).find(
          (e) => e.teamId === recipient.team.id && e.type === "transfer.created"
        )
        assert.isDefined(incoming)
        assert.deepStrictEqual((incoming.data as { decision: unknown }).decision, null)

        from = yield* published
        const held = yield* send(sender.agent, { to: { address }, amount: 6_000 })
        assert.deepStrictEqual(yield* eventsOf(from, recipient.team.id), [])
        yield* service.approve(sender.approver, held.approval!.id, null)
        yield* service.decline(recipient.agent, held.id)
        assert.deepStrictEqual(yield* eventsOf(from, sender.team.id), [
          "transfer.created:outgoing",
          "transfer.approval_required:outgoing",
          "transfer.declined:outgoing"
        ])
        assert.deepStrictEqual(yield* eventsOf(from, recipient.team.id), [
          "transfer.created:incoming",
          "transfer.declined:incoming"
        ])

        from = yield* published
        const refused = yield* send(sender.agent, { to: { address }, amount: 7_000 })
        yield* service.deny(sender.approver, refused.approval!.id, "no")
        const canceled = yield* send(sender.agent, { to: { address } })
        yield* service.cancel(sender.agent, canceled.id)
        assert.deepStrictEqual(yield* eventsOf(from, sender.team.id), [
          "transfer.created:outgoing",
          "transfer.approval_required:outgoing",
          "transfer.denied:outgoing",
          "transfer.created:outgoing",
          "transfer.canceled:outgoing"
        ])
        assert.deepStrictEqual(yield* eventsOf(from, recipient.team.id), [
          "transfer.created:incoming",
          "transfer.canceled:incoming"
        ])
      })
    )
  }
)
