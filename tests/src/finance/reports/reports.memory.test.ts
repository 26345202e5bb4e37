import { PortsMemory } from "@svc/adapters-memory"
import { Layer } from "effect"
import { reportsContract } from "./ReportsContract.ts"
import { ReportSeedPorts } from "./ReportsFixtures.ts"

reportsContract("memory", ReportSeedPorts.pipe(Layer.provideMerge(PortsMemory)))
