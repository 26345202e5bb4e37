import { PortsMemory } from "@svc/adapters-memory"
import { spendContract } from "./SpendContract.ts"

spendContract("in-memory", PortsMemory)
