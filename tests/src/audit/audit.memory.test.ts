import { AuditEntriesMemory, PortsMemory } from "@svc/adapters-memory"
import { chainHash } from "@svc/domain"
import { Effect, HashMap, Option, Ref } from "effect"
import { auditContract } from "./AuditContract.ts"

auditContract("in-memory", PortsMemory, (teamId, seq, content, rehash) =>
  Effect.gen(function* () {
    const entries = yield* AuditEntriesMemory
    const map = yield* Ref.get(entries)
    const chain = Option.getOrElse(HashMap.get(map, teamId), () => [])
    const changed = yield* Effect.forEach(chain, (entry) =>
      entry.seq !== seq
        ? Effect.succeed(entry)
        : Effect.map(rehash ? chainHash(entry.prevHash, content) : Effect.succeed(entry.hash), (hash) => ({
            ...entry,
            content,
            hash
          }))
    )
    yield* Ref.set(entries, HashMap.set(map, teamId, changed))
  })
)
