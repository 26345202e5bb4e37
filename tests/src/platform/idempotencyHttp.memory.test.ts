import { PortsMemory } from "@svc/adapters-memory"
import { Effect, Layer } from "effect"
import { domainOver } from "../ledger/LedgerSetup.ts"
import { Probe, ProbeAgents, type ProbeServices } from "../support/ProbeApi.ts"
import { idempotencySuite } from "./IdempotencyHttpSuite.ts"

idempotencySuite("in-memory", Layer.mergeAll(Probe.layer, ProbeAgents.layer, domainOver(PortsMemory)), {
  parallelTransactions: false,
  concurrentLocks: true,
  lockLabel: "memory",
  secondInstance: Effect.context<ProbeServices>()
})
