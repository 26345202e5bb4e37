import { PortsMemory } from "@svc/adapters-memory"
import { transfersHttpSuite } from "./TransfersHttpSuite.ts"

transfersHttpSuite("memory", PortsMemory)
