import { PortsMemory } from "@svc/domain/memory"
import { spendContract } from "./SpendContract.ts"

spendContract("in-memory", PortsMemory)
