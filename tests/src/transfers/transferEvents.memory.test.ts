import { PortsMemory } from "@svc/adapters-memory"
import { transferEventsSuite } from "./TransferEventsSuite.ts"

transferEventsSuite("memory", PortsMemory)
