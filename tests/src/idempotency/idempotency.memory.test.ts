import { PortsMemory } from "@svc/domain/memory"
import { Effect, Layer } from "effect"
import { domainOver } from "../contracts/LedgerContract.ts"
import { idempotencySuite } from "./IdempotencyHttpSuite.ts"
import { Probe, ProbeAgents, type ProbeServices } from "./ProbeApi.ts"

idempotencySuite("in-memory", Layer.mergeAll(Probe.layer, ProbeAgents.layer, domainOver(PortsMemory)), {
  parallelTransactions: false,
  concurrentLocks: true,
  lockLabel: "memory",
  secondInstance: Effect.context<ProbeServices>()
})
