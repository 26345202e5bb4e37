import { PortsMemory } from "@svc/adapters-memory"
import { transfersContract } from "./TransfersContract.ts"

transfersContract("in-memory", PortsMemory)
